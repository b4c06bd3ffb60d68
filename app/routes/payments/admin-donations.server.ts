import { periodRange, readDonationQuery, type DonationQuery } from '~/domain/donations/admin-filters';
import { meansFilter } from '~/domain/means/means';
import { listDonations, type Donation } from '~/domain/donations/ledger.server';
import { runtime } from '~/lib/runtime.server';

export const EXPORT_LIMIT = 50_000;

/** The donations matching the screen's filters, with the query as understood. */
export async function donationsFor(request: Request, limit: number): Promise<{ query: DonationQuery; rows: Donation[] }> {
  const query = readDonationQuery(new URL(request.url).searchParams);
  const range = periodRange(query);
  const rows = await listDonations(runtime().db, { ...range, ...meansFilter(query.provider), status: query.status || undefined, campaignId: query.campaign || undefined }, limit);
  return { query, rows };
}
