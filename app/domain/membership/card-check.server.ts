/**
 * The member card's check page (ADR 039): the card's QR code opens /adhesion/verifier/<token>,
 * where whoever holds the door of a members' event reads whether the card is valid today, with the
 * member's name and type — nothing else. The token is the membership's id and an HMAC-SHA256 of it
 * under a key derived from APP_SECRET for this purpose only: it cannot be guessed or enumerated,
 * needs no row, and never expires (the card stays the same when the dues are renewed; the page
 * reads the register's state of the day).
 */
import type { DB } from '~db/index';
import type { Lang } from '~/lib/i18n';
import { siteUrl } from '~/lib/lang-path';
import { parisDay } from '~/lib/paris';
import { hitRateLimit, type RateLimitResult } from '~/lib/rate-limit.server';
import { purposeKey } from '~/lib/secret-box.server';
import { signature, signatureMatches } from '~/lib/signed-link.server';
import { getMember } from './register.server';
import { getMembershipSettings } from './settings.server';
import { isCounted } from './status';
import { getType } from './types.server';

const key = purposeKey('member-card-check');

/** `<membershipId>.<hmac>`: names one membership's card, signed by this site. */
export function cardCheckToken(appSecret: string, membershipId: string): string {
  return `${membershipId}.${signature(key(appSecret), membershipId)}`;
}

/** The membership a check token names, or null when it was not signed by this site. */
export function membershipOfCardToken(appSecret: string, token: string): string | null {
  const m = /^([\w-]{1,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m && signatureMatches(key(appSecret), m[1], m[2]) ? m[1] : null;
}

/** The check page's address, in the card's language (what the QR code encodes). */
export function cardCheckUrl(publicUrl: string | undefined, lang: Lang, token: string): string {
  return siteUrl(publicUrl, lang, `/adhesion/verifier/${token}`);
}

/**
 * What the door sees: 'valid' (a member counted today: up to date, due soon, in grace, honorary),
 * 'expired' (a genuine card whose membership is not, or no longer, counted), or 'invalid' (a token
 * this site did not sign, or a membership no longer in the register) — only the first two name
 * the member and the type.
 */
export type CardCheck = { status: 'valid' | 'expired'; name: string; type: string } | { status: 'invalid' };

export async function checkMemberCard(db: DB, appSecret: string, token: string, lang: Lang, now = new Date()): Promise<CardCheck> {
  const id = membershipOfCardToken(appSecret, token);
  if (!id) return { status: 'invalid' };
  const { graceDays } = await getMembershipSettings(db);
  const member = await getMember(db, id, parisDay(now.toISOString()), graceDays);
  if (!member) return { status: 'invalid' };
  const type = await getType(db, member.typeId);
  return {
    status: isCounted(member.state) ? 'valid' : 'expired',
    name: `${member.firstName} ${member.lastName}`.trim(),
    type: type ? type.translations[lang].name || type.translations.fr.name : '',
  };
}

/** Checks a client may make: 60 a minute from one address (a door scans many cards, a guesser more). */
export const CHECK_LIMIT = 60;
export const CHECK_WINDOW_MS = 60_000;
export const cardCheckLimit = (db: DB, clientIp: string, now = Date.now()): Promise<RateLimitResult> => hitRateLimit(db, `card-check:${clientIp}`, CHECK_LIMIT, CHECK_WINDOW_MS, now);
