import { fetchJson } from './types';
import { fromDecimal } from '~/lib/currency';
import type { BalanceCapability, BalanceMove } from './balance';
import { flutterwaveOf } from './flutterwave.server';

/**
 * Flutterwave's word on a payment's fee (ADR 033): its verify answer (GET
 * /v3/transactions/verify_by_reference) gives `charged_amount`, `app_fee` (what Flutterwave kept)
 * and `amount_settled` (what reaches the settlement account), in the transaction's currency. A
 * transaction not yet successful, or an answer without them, records nothing.
 */
export function flutterwaveMove(d: any): BalanceMove | null {
  if (!d || d.status !== 'successful' || typeof d.currency !== 'string') return null;
  const currency = d.currency.toUpperCase();
  const gross = fromDecimal(d.charged_amount, currency);
  const fee = fromDecimal(d.app_fee, currency);
  const net = fromDecimal(d.amount_settled, currency);
  if (gross === null || fee === null || net === null || d.id === undefined) return null;
  const at = typeof d.created_at === 'string' ? new Date(d.created_at).toISOString() : new Date().toISOString();
  return { ref: String(d.id), kind: 'payment', grossMinor: gross, feeMinor: fee, netMinor: net, currency, occurredAt: at, availableAt: null };
}

export const flutterwaveBalance: BalanceCapability = {
  async moves(deps, donation) {
    const c = flutterwaveOf(deps);
    const json = await fetchJson('flutterwave', `${c.base}/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(donation.provider_ref)}`, { headers: { Authorization: `Bearer ${c.secretKey}`, Accept: 'application/json' } });
    const m = flutterwaveMove(json.data);
    return m ? [m] : [];
  },
};
