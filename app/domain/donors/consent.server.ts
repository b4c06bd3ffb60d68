import type { DB } from '~db/index';

/**
 * Consents given with a donation ("Recevoir des nouvelles de la fondation"), dated. The consent
 * points at its donation: whose it is follows the donation's email once the provider told it, and
 * goes with it when the donor's data is erased.
 */
import { NEWSLETTER } from '~/domain/donations/consent.server';

export { NEWSLETTER, recordNewsletterConsent } from '~/domain/donations/consent.server';

export interface ConsentRecord {
  kind: string;
  givenAt: string;
  withdrawnAt: string | null;
  donationId: string;
}

export async function consentsOf(db: DB, email: string): Promise<ConsentRecord[]> {
  const rows = await db
    .selectFrom('donor_consents')
    .innerJoin('donations', 'donations.id', 'donor_consents.donation_id')
    .select(['donor_consents.kind', 'donor_consents.given_at', 'donor_consents.withdrawn_at', 'donor_consents.donation_id'])
    .where((eb) => eb(eb.fn('lower', ['donations.donor_email']), '=', email))
    .orderBy('donor_consents.given_at')
    .execute();
  return rows.map((r) => ({ kind: r.kind, givenAt: r.given_at, withdrawnAt: r.withdrawn_at, donationId: r.donation_id }));
}

export interface OptIn {
  email: string;
  name: string;
  language: string;
  givenAt: string;
}

/**
 * Donors who asked for news and did not take it back: one line per email, with the latest consent.
 * `since`: only consents given, or whose gift changed (paid, refunded), from then.
 */
export async function newsletterOptIns(db: DB, since?: string): Promise<OptIn[]> {
  let q = db
    .selectFrom('donor_consents')
    .innerJoin('donations', 'donations.id', 'donor_consents.donation_id')
    .select(['donations.donor_email', 'donations.donor_name', 'donations.language', 'donor_consents.given_at'])
    .where('donor_consents.kind', '=', NEWSLETTER)
    .where('donor_consents.withdrawn_at', 'is', null)
    .where('donations.donor_email', 'is not', null)
    .where('donations.status', 'in', ['succeeded', 'refunded']);
  if (since) q = q.where((eb) => eb.or([eb('donor_consents.given_at', '>=', since), eb('donations.updated_at', '>=', since)]));
  const rows = await q.orderBy('donor_consents.given_at', 'desc').execute();
  const byEmail = new Map<string, OptIn>();
  for (const r of rows) {
    const email = r.donor_email!.toLowerCase();
    if (!byEmail.has(email)) byEmail.set(email, { email, name: r.donor_name ?? '', language: r.language, givenAt: r.given_at });
  }
  return [...byEmail.values()].sort((a, b) => a.email.localeCompare(b.email));
}
