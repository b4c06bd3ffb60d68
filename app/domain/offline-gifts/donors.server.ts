/**
 * Finding the donor of a cheque (ADR 028). There is no donor table: a donor is what their gifts
 * carry (`donations.donor_name`, `donor_email` and the receipt's details `tax_details`, ADR 012),
 * identified by e-mail when there is one. A donor known only by post has none, so a match is the
 * e-mail, or else the name and postal code. Reads only; the ledger writes the gifts.
 */
import type { DB } from '~db/index';
import { contains } from '~/domain/content/store.server';
import { parseTaxDetails, type TaxDetails } from '~/domain/receipts/donor-details';

/** A donor as their latest gift knows them: the receipt's details (empty when none) and the e-mail. */
export type KnownDonor = Omit<TaxDetails, 'kind'> & {
  /** The gift the details are read from (the entry form is filled from it). */
  fromGift: string;
  email: string;
};

type Row = { id: string; donor_name: string | null; donor_email: string | null; tax_details: string | null };

function donorOf(r: Row): KnownDonor {
  const t = parseTaxDetails(r.tax_details);
  return {
    fromGift: r.id,
    name: t?.name || r.donor_name || '',
    email: r.donor_email ?? '',
    company: t?.company ?? '',
    legalForm: t?.legalForm ?? '',
    siren: t?.siren ?? '',
    address: t?.address ?? '',
    postalCode: t?.postalCode ?? '',
    city: t?.city ?? '',
    country: t?.country ?? '',
  };
}

const keyOf = (d: KnownDonor) => (d.email ? d.email.toLowerCase() : `${d.name.toLowerCase()}|${d.postalCode}`);

/** Donors whose name, e-mail or address (postal code, city) holds `q`, from their latest gift, at most `limit`. */
export async function findDonors(db: DB, q: string, limit = 8): Promise<KnownDonor[]> {
  const text = q.trim().slice(0, 100);
  if (text.length < 2) return [];
  const rows = await db
    .selectFrom('donations')
    .select(['id', 'donor_name', 'donor_email', 'tax_details'])
    .where('purpose', '=', 'gift')
    .where('status', '=', 'succeeded')
    .where((eb) => eb.or([contains('donor_name', text), contains('donor_email', text), contains('tax_details', text)]))
    .orderBy('succeeded_at', 'desc')
    .limit(200)
    .execute();
  const seen = new Map<string, KnownDonor>();
  for (const r of rows) {
    const d = donorOf(r);
    if (!d.name && !d.email) continue;
    if (!seen.has(keyOf(d))) seen.set(keyOf(d), d);
  }
  return [...seen.values()].slice(0, limit);
}

/** The donor a gift names, to fill the entry form ("Choisir"); undefined for an unknown or erased gift. */
export async function donorOfGift(db: DB, giftId: string): Promise<KnownDonor | undefined> {
  const r = await db.selectFrom('donations').select(['id', 'donor_name', 'donor_email', 'tax_details']).where('id', '=', giftId).where('purpose', '=', 'gift').executeTakeFirst();
  const d = r && donorOf(r);
  return d && (d.name || d.email) ? d : undefined;
}
