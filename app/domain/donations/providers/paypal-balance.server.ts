import { fromDecimal } from '~/lib/currency';
import type { BalanceCapability, BalanceMove } from './balance';
import { call, payPalOf, type PayPalConfig } from './paypal.server';

/**
 * PayPal's own ledger (ADR 033): a captured payment's `seller_receivable_breakdown` (gross_amount,
 * paypal_fee, net_amount; GET /v2/payments/captures/{id}) and each refund's
 * `seller_payable_breakdown` (its paypal_fee is what PayPal gives back: a negative fee here), both
 * found through the order (GET /v2/checkout/orders/{id}). PayPal has no payout of its own to read:
 * the balance stays on the PayPal account until the foundation withdraws it.
 */

const minor = (m: any): number | null => (m && typeof m.currency_code === 'string' ? fromDecimal(m.value, m.currency_code) : null);

function move(ref: string, kind: 'payment' | 'refund', breakdown: any, at: unknown): BalanceMove | null {
  const gross = minor(breakdown?.gross_amount);
  const fee = minor(breakdown?.paypal_fee) ?? 0;
  const net = minor(breakdown?.net_amount);
  if (gross === null || net === null || typeof at !== 'string') return null;
  const sign = kind === 'refund' ? -1 : 1;
  return { ref, kind, grossMinor: sign * gross, feeMinor: fee === 0 ? 0 : sign * fee, netMinor: sign * net, currency: String(breakdown.gross_amount.currency_code).toUpperCase(), occurredAt: new Date(at).toISOString(), availableAt: null };
}

const ID = /^[A-Z0-9-]{1,64}$/i;

export async function payPalMoves(c: PayPalConfig, orderId: string): Promise<BalanceMove[]> {
  if (!ID.test(orderId)) return [];
  const order = await call(c, `/v2/checkout/orders/${orderId}`, { method: 'GET' });
  const payments = order.purchase_units?.[0]?.payments;
  const captureId = payments?.captures?.[0]?.id;
  if (typeof captureId !== 'string' || !ID.test(captureId)) return [];
  const capture = await call(c, `/v2/payments/captures/${captureId}`, { method: 'GET' });
  const moves = [move(capture.id, 'payment', capture.seller_receivable_breakdown, capture.create_time)];
  for (const r of Array.isArray(payments?.refunds) ? payments.refunds : []) {
    if (r?.status === 'COMPLETED' && typeof r.id === 'string') moves.push(move(r.id, 'refund', r.seller_payable_breakdown, r.create_time));
  }
  return moves.filter((m): m is BalanceMove => m !== null);
}

export const payPalBalance: BalanceCapability = {
  moves: (deps, donation) => payPalMoves(payPalOf(deps), donation.provider_ref),
};
