import { describe, expect, it } from 'vitest';
import { ASYNC_FAILED, ASYNC_SUCCEEDED, asksPayment, firstInvoiceMove, firstInvoiceStatus, stripeSessionStatus } from '~/domain/donations/providers/stripe-states';
import { DONATION_STATUSES } from '~/domain/donations/status';

/** Stripe's word on a SEPA debit, rule by rule (ADR 029; mutation-tested). */
describe('Stripe’s states in the ledger’s words', () => {
  const done = (payment_status: string) => ({ status: 'complete', payment_status });

  it('reads a session: expired, paid, nothing to pay, and nothing final otherwise', () => {
    expect(stripeSessionStatus({ status: 'expired', payment_status: 'unpaid' })).toBe('cancelled');
    expect(stripeSessionStatus(done('paid'))).toBe('succeeded');
    expect(stripeSessionStatus(done('no_payment_required'))).toBe('succeeded');
    expect(stripeSessionStatus({ status: 'open', payment_status: 'paid' })).toBeNull();
    expect(stripeSessionStatus({ status: 'open', payment_status: 'unpaid' }, { paymentIntent: 'processing' })).toBeNull();
    expect(stripeSessionStatus(done(''))).toBeNull();
    expect(stripeSessionStatus({})).toBeNull();
  });

  it('reads a session completed unpaid as a debit on its way — never as a failure — only while its PaymentIntent is processing', () => {
    expect(stripeSessionStatus(done('unpaid'), { paymentIntent: 'processing' })).toBe('processing');
    expect(stripeSessionStatus(done('unpaid'))).toBeNull();
    expect(stripeSessionStatus(done('unpaid'), { paymentIntent: 'requires_payment_method' })).toBeNull();
    expect(stripeSessionStatus(done('unpaid'), { paymentIntent: 'succeeded' })).toBeNull();
    expect(stripeSessionStatus(done('paid'), { paymentIntent: 'processing' })).toBe('succeeded');
    expect(stripeSessionStatus(done(''), { paymentIntent: 'processing' })).toBeNull();
  });

  it('reads the news of a debit: succeeded once Stripe says paid, failed on its failure, whatever the session says', () => {
    expect(stripeSessionStatus(done('paid'), { event: ASYNC_SUCCEEDED, paymentIntent: 'succeeded' })).toBe('succeeded');
    expect(stripeSessionStatus(done('unpaid'), { event: ASYNC_FAILED, paymentIntent: 'requires_payment_method' })).toBe('failed');
    expect(stripeSessionStatus(done('unpaid'), { event: ASYNC_FAILED, paymentIntent: 'processing' })).toBe('failed');
    expect(stripeSessionStatus(done('paid'), { event: ASYNC_FAILED })).toBe('failed');
    expect(stripeSessionStatus({ status: 'expired' }, { event: ASYNC_FAILED })).toBe('cancelled');
    expect(stripeSessionStatus({ status: 'open' }, { event: ASYNC_FAILED })).toBeNull();
    expect(stripeSessionStatus(done('unpaid'), { event: 'checkout.session.completed', paymentIntent: 'processing' })).toBe('processing');
    expect([ASYNC_SUCCEEDED, ASYNC_FAILED]).toEqual(['checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed']);
  });

  it('asks Stripe about a session’s payment only when complete and unpaid, or on news of its debit', () => {
    expect(asksPayment(done('unpaid'))).toBe(true);
    expect(asksPayment(done('paid'))).toBe(false);
    expect(asksPayment(done('paid'), 'checkout.session.completed')).toBe(false);
    expect(asksPayment(done('paid'), ASYNC_SUCCEEDED)).toBe(true);
    expect(asksPayment(done('unpaid'), ASYNC_FAILED)).toBe(true);
    expect(asksPayment(done('paid'), ASYNC_FAILED)).toBe(true);
    expect(asksPayment({ status: 'open', payment_status: 'unpaid' })).toBe(false);
    expect(asksPayment({ status: 'expired', payment_status: 'unpaid' }, ASYNC_FAILED)).toBe(false);
  });

  it('reads a first invoice’s news; a renewal’s or any other news is not the first gift’s', () => {
    const first = { billing_reason: 'subscription_create' };
    expect(firstInvoiceStatus('invoice.paid', first)).toBe('succeeded');
    expect(firstInvoiceStatus('invoice.payment_failed', first)).toBe('failed');
    expect(firstInvoiceStatus('invoice.finalized', first)).toBeNull();
    expect(firstInvoiceStatus('invoice.paid', { billing_reason: 'subscription_cycle' })).toBeNull();
    expect(firstInvoiceStatus('invoice.payment_failed', { billing_reason: 'subscription_cycle' })).toBeNull();
    expect(firstInvoiceStatus('invoice.paid', {})).toBeNull();
  });

  it('applies a first invoice’s news to the gift by its status: moved once, a new gift after a failure, else nothing', () => {
    const moves = (news: 'succeeded' | 'failed') => Object.fromEntries(DONATION_STATUSES.map((s) => [s, firstInvoiceMove(news, s)]));
    expect(moves('succeeded')).toEqual({ pending: 'move', processing: 'move', cancelled: 'move', succeeded: 'none', failed: 'gift', refunded: 'none', adopted: 'none' });
    expect(moves('failed')).toEqual({ pending: 'none', processing: 'move', cancelled: 'none', succeeded: 'none', failed: 'none', refunded: 'none', adopted: 'none' });
  });
});
