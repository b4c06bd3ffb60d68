import type { DB } from '~db/index';
import { newsletterOptIns } from '~/domain/donors/consent.server';
import { MEMBER_NEWS_WORDING } from '~/domain/membership/forms';
import { parisDay } from '~/lib/paris';
import { membersWantingNews } from '~/domain/membership/register.server';
import { getMembershipSettings } from '~/domain/membership/settings.server';
import { joinFromConsent } from '~/domain/subscribers/subscribers.server';
import { isLang } from '~/lib/i18n';
import { putSettingDocument, readSettingDocument } from '~/lib/settings-document.server';

/**
 * The version of the donation form's box ("Recevoir des nouvelles de la fondation",
 * `donorSpace.newsletterConsent`), kept with a donor's proof of consent.
 */
export const DONATION_FORM_WORDING = 'donation-form-2026-11';

/** Where the last pass stopped (a document in `settings`): the next reads only what changed since. */
export const SYNC_KEY = 'letters.sources';

/**
 * How far before the last pass the next one looks again: a consent written by a transaction that
 * committed after the pass began, or by an instance whose clock runs behind, is still seen. Joining
 * is idempotent, so reading a row twice changes nothing.
 */
export const SYNC_OVERLAP_MS = 5 * 60 * 1000;

async function lastPass(db: DB): Promise<string | undefined> {
  return ((await readSettingDocument(db, SYNC_KEY)).value as { at?: string } | undefined)?.at;
}

/**
 * Donors who ticked the box on a paid gift (donors/consent.server.ts) join the list with source
 * 'donor' in their gift's language; members counted today (membership/register.server.ts) who
 * have an email and ticked the news box join with source 'member' in their mails' language. Only
 * what changed since the last pass is read (a new consent, a gift paid, dues paid, an override),
 * so the letters' job can run it every minute and a send just before fixing its audience. The
 * rules of joining are the list's (`afterDonorConsent`): a departure after the consent wins.
 * Returns how many joined now.
 */
export async function syncSources(db: DB, now = new Date()): Promise<number> {
  const last = await lastPass(db);
  const since = last ? new Date(new Date(last).getTime() - SYNC_OVERLAP_MS).toISOString() : undefined;
  const { graceDays } = await getMembershipSettings(db);
  const donors = (await newsletterOptIns(db, since)).map((o) => ({ email: o.email, language: isLang(o.language) ? o.language : ('fr' as const), source: 'donor' as const, givenAt: o.givenAt, wordingVersion: DONATION_FORM_WORDING, ref: 'donation-form' }));
  const members = (await membersWantingNews(db, parisDay(now.toISOString()), graceDays, since)).map((m) => ({ email: m.email, language: m.language, source: 'member' as const, givenAt: m.givenAt, wordingVersion: MEMBER_NEWS_WORDING, ref: `membre n° ${m.number}` }));
  let joined = 0;
  for (const consent of [...donors, ...members]) if (await joinFromConsent(db, consent, now)) joined++;
  // Never backwards: a pass that started earlier on another instance does not undo a later one's mark.
  if (!last || now.toISOString() > last) await putSettingDocument(db, SYNC_KEY, { at: now.toISOString() }, now);
  return joined;
}
