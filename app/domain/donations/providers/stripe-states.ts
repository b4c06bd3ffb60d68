import type { DonationStatus } from '../status';

/**
 * Stripe's word on a payment, in the ledger's statuses (ADR 019, ADR 029). Pure, so every rule is
 * spelt out by tests/unit/stripe-states.test.ts (mutation-tested).
 */

/** The events of a Checkout Session whose debit settled late (SEPA direct debit: days after the mandate). */
export const ASYNC_SUCCEEDED = 'checkout.session.async_payment_succeeded';
export const ASYNC_FAILED = 'checkout.session.async_payment_failed';

/**
 * A Checkout Session's status: `expired` → cancelled; `complete` and paid (or nothing to pay) →
 * succeeded; complete, unpaid, with its PaymentIntent `processing` → processing (a SEPA mandate
 * signed, the debit on its way: never a failure — reading it so made donors pay twice); the news
 * of its debit failing (`async_payment_failed`) → failed. Anything else: `null`, nothing final yet.
 * `paymentIntent`: the status of the session's PaymentIntent, when it was asked of Stripe.
 */
export function stripeSessionStatus(session: { status?: string | null; payment_status?: string | null }, seen: { event?: string; paymentIntent?: string | null } = {}): DonationStatus | null {
  if (session.status === 'expired') return 'cancelled';
  if (session.status !== 'complete') return null;
  if (seen.event === ASYNC_FAILED) return 'failed';
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return 'succeeded';
  return session.payment_status === 'unpaid' && seen.paymentIntent === 'processing' ? 'processing' : null;
}

/** Whether a session's own payment must be asked of Stripe: complete yet unpaid (a debit on its way), or news of its debit. */
export function asksPayment(session: { status?: string | null; payment_status?: string | null }, event?: string): boolean {
  return session.status === 'complete' && (session.payment_status === 'unpaid' || event === ASYNC_SUCCEEDED || event === ASYNC_FAILED);
}

/**
 * What news of a subscription's first invoice says of the gift its checkout started (a monthly SEPA
 * gift, whose checkout completed unpaid): `invoice.paid` → succeeded, `invoice.payment_failed` →
 * failed; null for a renewal's invoice or any other news (renewals: stripe.server.ts).
 */
export function firstInvoiceStatus(eventType: string, invoice: { billing_reason?: string | null }): 'succeeded' | 'failed' | null {
  if (invoice.billing_reason !== 'subscription_create') return null;
  if (eventType === 'invoice.paid') return 'succeeded';
  return eventType === 'invoice.payment_failed' ? 'failed' : null;
}

/**
 * How a first invoice's news applies to the gift its checkout started, by the gift's status. Paid:
 * `move` a gift not settled yet (a debit being processed, an attempt whose completion was not heard
 * of or that the donor's return from the cancel page closed); after the gift failed, the donor gave
 * another account and Stripe debited it: a new `gift`. Failed: `move` only a debit being processed
 * — a card checkout still open may yet be paid with another card, so its failure stays the monthly
 * register's news. `none` for what is already so or settled otherwise (a replay, a card gift paid
 * at checkout).
 */
export function firstInvoiceMove(news: 'succeeded' | 'failed', gift: DonationStatus): 'move' | 'gift' | 'none' {
  if (news === 'failed') return gift === 'processing' ? 'move' : 'none';
  if (gift === 'pending' || gift === 'processing' || gift === 'cancelled') return 'move';
  return gift === 'failed' ? 'gift' : 'none';
}
