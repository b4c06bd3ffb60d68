import { fromDecimal } from '../money';
import { flutterwaveStatus } from './statuses';
import { fetchJson, ProviderError, type VerifiedPayment } from './types';

export const FLUTTERWAVE_API = 'https://api.flutterwave.com';

export interface FlutterwaveConfig {
  base: string;
  secretKey: string;
}

function payment(json: any): VerifiedPayment & { txRef: string | null } {
  // Stryker disable next-line OptionalChaining: fetchJson returns an object or throws
  const d = json?.data;
  // Stryker disable next-line OptionalChaining: fetchJson returns an object or throws
  if (json?.status !== 'success' || !d || typeof d !== 'object') throw new ProviderError('flutterwave', 'réponse illisible');
  const currency = typeof d.currency === 'string' ? d.currency.toUpperCase() : null;
  let amountMinor: number | null = null;
  try {
    amountMinor = currency ? fromDecimal(d.amount, currency) : null;
  } catch {
    amountMinor = null;
  }
  return {
    ref: String(d.tx_ref ?? ''),
    txRef: typeof d.tx_ref === 'string' ? d.tx_ref : null,
    status: flutterwaveStatus(d.status),
    amountMinor,
    currency,
    donorName: typeof d.customer?.name === 'string' ? d.customer.name : null,
    donorEmail: typeof d.customer?.email === 'string' ? d.customer.email : null,
    secondaryRef: d.id === undefined ? null : String(d.id),
    // The checkout's `meta` (campaigns): compared with our row, never taken from here.
    designation: d.meta && typeof d.meta === 'object' ? (typeof d.meta.campaign_id === 'string' ? d.meta.campaign_id : null) : undefined,
  };
}

/** GET /v3/transactions/{id}/verify with the secret key. */
export async function verifyTransaction(c: FlutterwaveConfig, id: string) {
  if (!/^\d{1,20}$/.test(id)) throw new ProviderError('flutterwave', 'identifiant de transaction invalide');
  return payment(await fetchJson('flutterwave', `${c.base}/v3/transactions/${id}/verify`, { headers: { Authorization: `Bearer ${c.secretKey}`, Accept: 'application/json' } }));
}

/** GET /v3/transactions/verify_by_reference?tx_ref=… (re-check of a pending attempt). */
export async function verifyByReference(c: FlutterwaveConfig, txRef: string) {
  return payment(await fetchJson('flutterwave', `${c.base}/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(txRef)}`, { headers: { Authorization: `Bearer ${c.secretKey}`, Accept: 'application/json' } }));
}
