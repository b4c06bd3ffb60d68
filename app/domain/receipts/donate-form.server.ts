import type { DB } from '~db/index';
import { readTaxDetails, type TaxFieldError } from './donor-details';
import { receiptOffer } from './settings.server';

export type DonateTaxResult = { ok: true; taxDetails: string | null } | { ok: false; errors: TaxFieldError[]; values: Record<string, string> };

/**
 * The donate form's receipt fields, read on the server for every method: nothing is asked while
 * receipts are off; otherwise the details are validated and returned as the JSON the gift keeps.
 */
export async function donorTaxDetails(db: DB, get: (name: string) => string): Promise<DonateTaxResult> {
  const offer = await receiptOffer(db);
  if (!offer.receipts) return { ok: true, taxDetails: null };
  const r = readTaxDetails(get, { ifi: offer.ifi });
  if (!r.ok) return { ok: false, errors: r.errors, values: r.values };
  return { ok: true, taxDetails: r.details ? JSON.stringify(r.details) : null };
}
