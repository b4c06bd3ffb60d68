import type { DB } from '~db/index';
import { newsletterOptIns } from '~/domain/donors/consent.server';
import { joinFromConsent } from '~/domain/subscribers/subscribers.server';
import { isLang } from '~/lib/i18n';

/**
 * The version of the donation form's box ("Recevoir des nouvelles de la fondation",
 * `donorSpace.newsletterConsent`), kept with a donor's proof of consent.
 */
export const DONATION_FORM_WORDING = 'donation-form-2026-11';

/**
 * Donors who ticked the box on a paid gift (donors/consent.server.ts, read from there) join the list
 * with source 'donor', in their gift's language. Run before a letter's audience is read, and from
 * the back office's list. Returns how many joined now.
 */
export async function syncDonorSubscribers(db: DB, now = new Date()): Promise<number> {
  let joined = 0;
  for (const o of await newsletterOptIns(db)) {
    const ok = await joinFromConsent(
      db,
      { email: o.email, language: isLang(o.language) ? o.language : 'fr', source: 'donor', givenAt: o.givenAt, wordingVersion: DONATION_FORM_WORDING, ref: 'donation-form' },
      now,
    );
    if (ok) joined++;
  }
  return joined;
}
