import { describe, expect, it } from 'vitest';
import { flutterwaveMove } from '~/domain/donations/providers/flutterwave-balance.server';
import { moveKind } from '~/domain/donations/providers/stripe-balance.server';

/** The providers' ledgers in our words (ADR 033): what a verify answer or a balance transaction says. */
describe('provider balance readers', () => {
  const verified = { id: 4200, status: 'successful', currency: 'XOF', charged_amount: 13119, app_fee: 184, amount_settled: 12935, created_at: '2026-11-29T10:00:00.000Z' };

  it('reads Flutterwave’s fee and settled amount from a successful verify answer', () => {
    expect(flutterwaveMove(verified)).toEqual({ ref: '4200', kind: 'payment', grossMinor: 13119, feeMinor: 184, netMinor: 12935, currency: 'XOF', occurredAt: '2026-11-29T10:00:00.000Z', availableAt: null });
  });

  it('records nothing from Flutterwave without a fee, or before success', () => {
    expect(flutterwaveMove({ ...verified, app_fee: undefined })).toBeNull();
    expect(flutterwaveMove({ ...verified, amount_settled: null })).toBeNull();
    expect(flutterwaveMove({ ...verified, status: 'pending' })).toBeNull();
    expect(flutterwaveMove(null)).toBeNull();
  });

  it('names Stripe’s reporting categories', () => {
    expect(moveKind({ reporting_category: 'charge', type: 'charge' })).toBe('payment');
    expect(moveKind({ reporting_category: 'refund', type: 'refund' })).toBe('refund');
    expect(moveKind({ reporting_category: 'dispute', type: 'adjustment' })).toBe('dispute');
    expect(moveKind({ reporting_category: 'dispute_reversal', type: 'adjustment' })).toBe('dispute');
    expect(moveKind({ reporting_category: 'fee', type: 'stripe_fee' })).toBe('other');
  });
});
