import { describe, expect, it } from 'vitest';
import { coinGateStatus } from '~/domain/donations/providers/coingate.server';
import { flutterwaveStatus } from '~/domain/donations/providers/flutterwave.server';
import { payPalCaptureStatus } from '~/domain/donations/providers/paypal.server';
import { stripeSessionStatus } from '~/domain/donations/providers/stripe.server';
import { canTransition, sourcesOf } from '~/domain/donations/ledger.server';
import { SOURCES } from '~/domain/donations/moves';
import { staffMeansLabel } from '~/domain/means/means';
import { DONATION_STATUSES, PAYMENT_MEANS, referenceOf, STATUS_LABELS } from '~/domain/donations/status';

/** Every status rule spelt out, pair by pair (mutation testing, ADR 011). */
describe('donation statuses', () => {
  it('allows exactly these transitions, and no other', () => {
    const allowed = ['pending→processing', 'pending→succeeded', 'pending→failed', 'pending→cancelled', 'processing→succeeded', 'processing→failed', 'cancelled→processing', 'cancelled→succeeded', 'cancelled→failed', 'succeeded→refunded'];
    for (const from of DONATION_STATUSES) {
      for (const to of DONATION_STATUSES) expect(canTransition(from, to), `${from}→${to}`).toBe(allowed.includes(`${from}→${to}`));
    }
    expect(sourcesOf('succeeded')).toEqual(['pending', 'processing', 'cancelled']);
    expect(sourcesOf('failed')).toEqual(['pending', 'processing', 'cancelled']);
    // A late "processing" news never takes a settled gift back (ADR 029).
    expect(sourcesOf('processing')).toEqual(['pending', 'cancelled']);
    // What the ledger's conditional UPDATE reads: the same, worked out once.
    expect(SOURCES).toEqual(Object.fromEntries(DONATION_STATUSES.map((to) => [to, sourcesOf(to)])));
    expect(sourcesOf('refunded')).toEqual(['succeeded']);
    expect(sourcesOf('pending')).toEqual([]);
  });

  it('labels statuses and providers in French for the back office and the CSV', () => {
    expect(STATUS_LABELS).toEqual({ pending: 'En attente', processing: 'En cours de prélèvement', succeeded: 'Réussi', failed: 'Échoué', cancelled: 'Annulé', refunded: 'Remboursé', adopted: 'Don mensuel repris' });
    expect(staffMeansLabel('stripe', 'sepa_debit')).toBe('Prélèvement SEPA');
    expect(Object.fromEntries(PAYMENT_MEANS.map((p) => [p, staffMeansLabel(p)]))).toEqual({ stripe: 'Carte (Stripe)', paypal: 'PayPal', coingate: 'Crypto (CoinGate)', flutterwave: 'Mobile money (Flutterwave)', mobile_link: 'Mobile money (lien)', cash: 'Espèces', cheque: 'Chèque', transfer: 'Virement', in_kind: 'En nature', waived_expenses: 'Abandon de frais' });
  });

  it('shows an offline payment by its cheque number or label, never by its form token; a provider’s payment by its own reference', () => {
    expect(referenceOf({ provider_ref: 'offline:3f1c', secondary_ref: 'CHQ 12' })).toBe('CHQ 12');
    expect(referenceOf({ provider_ref: 'offline:3f1c', secondary_ref: null })).toBe('');
    expect(referenceOf({ provider_ref: 'cs_test_1', secondary_ref: 'pi_1' })).toBe('cs_test_1');
  });

  it('maps each provider status, and leaves unknown ones as nothing final yet', () => {
    expect(stripeSessionStatus({ status: 'complete', payment_status: 'no_payment_required' })).toBe('succeeded');
    expect(stripeSessionStatus({ status: 'open', payment_status: 'paid' })).toBeNull();
    expect(stripeSessionStatus({ status: 'complete', payment_status: '' })).toBeNull();
    expect(stripeSessionStatus({})).toBeNull();
    expect(['COMPLETED', 'DECLINED', 'FAILED', 'REFUNDED', 'PENDING', '', undefined].map(payPalCaptureStatus)).toEqual(['succeeded', 'failed', 'failed', 'refunded', null, null, null]);
    expect(['paid', 'invalid', 'expired', 'canceled', 'refunded', 'pending', 'confirming', '', undefined].map(coinGateStatus)).toEqual(['succeeded', 'failed', 'cancelled', 'cancelled', 'refunded', null, null, null, null]);
    expect(['successful', 'failed', 'cancelled', 'pending', '', undefined].map(flutterwaveStatus)).toEqual(['succeeded', 'failed', 'cancelled', null, null, null]);
  });
});
