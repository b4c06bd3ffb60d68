import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';

/**
 * The consent a payer gives with a payment ("Recevoir des nouvelles de la fondation"), recorded by
 * the ledger with the attempt, in its transaction (ADR 013). Reading and withdrawing consents is the
 * donors area's (donors/consent.server.ts).
 */
export const NEWSLETTER = 'newsletter';

export async function recordNewsletterConsent(db: DB, donationId: string, now = new Date()): Promise<void> {
  await db.insertInto('donor_consents').values({ id: randomUUID(), donation_id: donationId, kind: NEWSLETTER, given_at: now.toISOString(), withdrawn_at: null }).execute();
}
