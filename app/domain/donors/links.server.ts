import { z } from 'zod';
import type { DB } from '~db/index';
import { isMemberEmail } from '~/domain/membership/space.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { hashToken, newToken } from '~/lib/tokens.server';

/**
 * Passwordless sign-in to the donor space (ADR 013): a single-use link valid 30 minutes, mailed only
 * to an email that has given or is a member's (ADR 021); the answer is the same whether or not the email is known, and the
 * lookup, the link and the mail all come after the answer, so neither the words nor the time of
 * the answer tell them apart.
 */
export const LINK_TTL_MS = 30 * 60 * 1000;
/** A donor session ends this long after the link was used, however active. */
export const DONOR_SESSION_MS = 60 * 60 * 1000;
export const DONOR_PATH = '/mon-espace';
export const LINK_WINDOW_MS = 15 * 60 * 1000;
export const LINK_LIMIT_PER_EMAIL = 3;
export const LINK_LIMIT_PER_ADDRESS = 10;

const emailSchema = z.email().max(254);

/** Trimmed and lowercased, or null when it is not an email. */
export function normalizeEmail(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const email = input.trim().toLowerCase();
  return emailSchema.safeParse(email).success ? email : null;
}

/**
 * Whether this email may open the donor space: a gift was confirmed (or a debit signed) from it, or a membership is
 * registered under it (the space serves members too, ADR 021).
 */
export async function isKnownDonor(db: DB, email: string): Promise<boolean> {
  return (await hasGiven(db, email)) || isMemberEmail(db, email);
}

async function hasGiven(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('donations')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email))
    // A SEPA gift's donor too, while the debit is processed, and when a monthly gift's first debit
    // failed: its account is updated from the space (ADR 029); an adopted monthly gift's donor (ADR 037).
    .where((eb) => eb.or([eb('status', 'in', ['succeeded', 'refunded', 'processing', 'adopted']), eb.and([eb('status', '=', 'failed'), eb('frequency', '=', 'monthly'), eb('method', 'is not', null), eb('secondary_ref', 'is not', null)])]))
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

export type LinkAnswer = { status: 'sent' } | { status: 'invalid' } | { status: 'limited'; retryAfter: number };

/**
 * Counts the request against the address and the email (both always) and answers; nothing before
 * the answer depends on whether the email is known. The rest — looking the email up, writing a
 * link for a known donor and handing it to `deliver` — is the job given to `after`, which runs it
 * once the answer is on its way (the route: `setImmediate`; a test may await it). Rate-limit keys
 * hold a hash of the email, never the email.
 */
export async function requestSignInLink(
  db: DB,
  r: { email: unknown; ip: string; deliver: (email: string, token: string) => void | Promise<void>; after: (job: () => Promise<void>) => void },
  now = new Date(),
): Promise<LinkAnswer> {
  const email = normalizeEmail(r.email);
  if (!email) return { status: 'invalid' };
  const byEmail = await hitRateLimit(db, `donor-link:email:${hashToken(email)}`, LINK_LIMIT_PER_EMAIL, LINK_WINDOW_MS, now.getTime());
  const byAddress = await hitRateLimit(db, `donor-link:ip:${r.ip}`, LINK_LIMIT_PER_ADDRESS, LINK_WINDOW_MS, now.getTime());
  const over = [byEmail, byAddress].filter((x) => !x.allowed);
  if (over.length) return { status: 'limited', retryAfter: Math.max(...over.map((x) => x.retryAfter)) };
  r.after(() => sendLinkIfKnown(db, email, r.deliver, now));
  return { status: 'sent' };
}

/** A known donor gets a new link (its hash stored) through `deliver`; an unknown email, nothing. */
async function sendLinkIfKnown(db: DB, email: string, deliver: (email: string, token: string) => void | Promise<void>, now: Date): Promise<void> {
  if (!(await isKnownDonor(db, email))) return;
  const { token, hash } = newToken();
  await db
    .insertInto('donor_links')
    .values({ id: hash, email, created_at: now.toISOString(), expires_at: new Date(now.getTime() + LINK_TTL_MS).toISOString(), used_at: null })
    .execute();
  await deliver(email, token);
}

/** Uses a link (once, before it expires) and opens a donor session; null when the link is not valid. */
export async function useSignInLink(db: DB, token: string, now = new Date()): Promise<{ token: string; email: string; expiresAt: Date } | null> {
  if (!token || token.length > 100) return null;
  const at = now.toISOString();
  const link = await db
    .updateTable('donor_links')
    .set({ used_at: at })
    .where('id', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('email')
    .executeTakeFirst();
  if (!link) return null;
  const session = newToken();
  const expiresAt = new Date(now.getTime() + DONOR_SESSION_MS);
  await db.insertInto('donor_sessions').values({ id: session.hash, email: link.email, created_at: at, expires_at: expiresAt.toISOString() }).execute();
  return { token: session.token, email: link.email, expiresAt };
}

export interface DonorSession {
  email: string;
}

export async function readDonorSession(db: DB, token: string | undefined, now = new Date()): Promise<DonorSession | null> {
  if (!token || token.length > 100) return null;
  const row = await db.selectFrom('donor_sessions').select(['email', 'expires_at']).where('id', '=', hashToken(token)).executeTakeFirst();
  if (!row) return null;
  if (Date.parse(row.expires_at) <= now.getTime()) {
    await db.deleteFrom('donor_sessions').where('id', '=', hashToken(token)).execute();
    return null;
  }
  return { email: row.email };
}

export async function endDonorSession(db: DB, token: string | undefined): Promise<void> {
  if (token) await db.deleteFrom('donor_sessions').where('id', '=', hashToken(token)).execute();
}

/** Expired links and sessions go; called by the periodic pruning. */
export async function pruneDonorAccess(db: DB, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await db.deleteFrom('donor_links').where('expires_at', '<=', at).execute();
  await db.deleteFrom('donor_sessions').where('expires_at', '<=', at).execute();
}
