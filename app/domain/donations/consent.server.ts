import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';

/**
 * The consent a payer gives with a payment ("Recevoir des nouvelles de la fondation"), recorded by
 * the ledger with the attempt, in its transaction (ADR 013), and withdrawn with every other consent
 * that feeds the news list when the address leaves it (subscribers/leave.server.ts, ADR 022).
 * Reading a donor's consents for their space and export is the donors area's (donors/consent.server.ts).
 */
export const NEWSLETTER = 'newsletter';

export async function recordNewsletterConsent(db: DB, donationId: string, now = new Date()): Promise<void> {
  await db.insertInto('donor_consents').values({ id: randomUUID(), donation_id: donationId, kind: NEWSLETTER, given_at: now.toISOString(), withdrawn_at: null }).execute();
}

/** The gifts (ids) of this address whose news consent stands. The consent follows its gift's email. */
function standingConsents(db: DB, email: string) {
  return db
    .selectFrom('donor_consents')
    .innerJoin('donations', 'donations.id', 'donor_consents.donation_id')
    .select('donor_consents.donation_id')
    .where('donor_consents.kind', '=', NEWSLETTER)
    .where('donor_consents.withdrawn_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['donations.donor_email']), '=', email.trim().toLowerCase()));
}

/** Whether a news consent given with one of this address's gifts still stands. */
export async function hasNewsConsent(db: DB, email: string): Promise<boolean> {
  return (await standingConsents(db, email).executeTakeFirst()) !== undefined;
}

/** Takes back every news consent given with this address's gifts; returns how many were standing. */
export async function withdrawNewsConsents(db: DB, email: string, now = new Date()): Promise<number> {
  const ids = (await standingConsents(db, email).execute()).map((r) => r.donation_id);
  if (!ids.length) return 0;
  const r = await db.updateTable('donor_consents').set({ withdrawn_at: now.toISOString() }).where('kind', '=', NEWSLETTER).where('withdrawn_at', 'is', null).where('donation_id', 'in', ids).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
