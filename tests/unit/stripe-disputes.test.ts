import { describe, expect, it } from 'vitest';
import { disputeReasonLabel, STRIPE_DISPUTE_EVENTS, stripeDispute } from '~/domain/donations/providers/stripe-disputes';

const dispute = (status: string, reason: string | null = 'fraudulent') => ({ id: 'dp_1', status, reason, amount: 5000, currency: 'eur' }) as Parameters<typeof stripeDispute>[0];

describe('Stripe disputes in our words (ADR 027)', () => {
  it('reads the dispute events that carry news: created, funds withdrawn, closed', () => {
    expect([...STRIPE_DISPUTE_EVENTS].sort()).toEqual(['charge.dispute.closed', 'charge.dispute.created', 'charge.dispute.funds_withdrawn']);
  });

  it('maps every status Stripe documents to open, won or lost, and nothing else', () => {
    const outcomes = Object.fromEntries(
      ['warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost', 'prevented', 'constructor', ''].map((s) => [s, stripeDispute(dispute(s))?.outcome ?? null]),
    );
    expect(outcomes).toEqual({
      warning_needs_response: 'open',
      warning_under_review: 'open',
      warning_closed: 'won',
      needs_response: 'open',
      under_review: 'open',
      won: 'won',
      lost: 'lost',
      prevented: null,
      constructor: null,
      '': null,
    });
  });

  it('keeps the dispute’s id, reason, amount and currency (upper case)', () => {
    expect(stripeDispute(dispute('lost', 'insufficient_funds'))).toEqual({ ref: 'dp_1', outcome: 'lost', reason: 'insufficient_funds', reasonLabel: 'provision insuffisante', amountMinor: 5000, currency: 'EUR' });
    expect(stripeDispute(dispute('won', null))).toMatchObject({ reason: null, reasonLabel: 'motif non précisé' });
    expect(stripeDispute(dispute('won', ''))).toMatchObject({ reason: null, reasonLabel: 'motif non précisé' });
  });

  it('says each reason code Stripe documents in French words of its own, and an unknown one as it came', () => {
    const codes = ['bank_cannot_process', 'credit_not_processed', 'customer_initiated', 'debit_not_authorized', 'duplicate', 'fraudulent', 'general', 'incorrect_account_details', 'insufficient_funds', 'product_not_received', 'product_unacceptable', 'subscription_canceled', 'unrecognized'];
    const labels = codes.map(disputeReasonLabel);
    // Each its own sentence, none the fallback's, none Stripe's code.
    expect(new Set(labels).size).toBe(codes.length);
    for (const label of labels) expect(label).toMatch(/^[a-zàâçéèêëîïôûù’ ]{8,}$/);
    for (const [i, label] of labels.entries()) expect(label).not.toContain(codes[i]);
    expect(labels.filter((l) => l.startsWith('motif «'))).toEqual([]);
    expect(disputeReasonLabel('debit_not_authorized')).toBe('prélèvement non autorisé');
    expect(disputeReasonLabel('fraudulent')).toBe('paiement frauduleux selon le titulaire');
    expect(disputeReasonLabel('noncompliant')).toBe('motif « noncompliant »');
    expect(disputeReasonLabel('toString')).toBe('motif « toString »');
    expect(disputeReasonLabel(undefined)).toBe('motif non précisé');
  });
});
