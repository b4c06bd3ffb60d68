import { afterAll, beforeAll, expect, it } from 'vitest';
import { catchUpFees, giftsMissingMoves } from '~/domain/donations/fees-job.server';
import { fetchGiftMoves, feesSettled } from '~/domain/donations/fees.server';
import { findById } from '~/domain/donations/ledger.server';
import { getPaymentSettings } from '~/domain/donations/providers/settings.server';
import { payoutsBetween, feeTotals } from '~/domain/donations/payouts.server';
import { parseEnv } from '~/lib/env.server';
import { registerFeeFetching } from '../../server/payment-subscribers';
import { capturePayPalDonation, handlePayPalWebhook, handleStripeWebhook, startCardDonation, startPayPalDonation, type DonationDeps } from '../support/payment-entry';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { DISPUTE_FEE, fakeCardFee } from '../fakes/stripe-balance';
import { fakePayPalFee, startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { enableEveryMethod, PAYPAL_TEST } from '../support/donations';

/**
 * Fees and payouts from the providers' own ledgers (issue 42, ADR 033): read from the fakes' answers
 * in Stripe's and PayPal's documented shapes, stored beside the gift (never changing it), replay-safe,
 * grouped by payout; the catch-up job fetches what a failed background fetch missed.
 */
const KEYS = { appSecret: 'test-secret-'.padEnd(48, 'f'), secretKey: 'sk_test_fees', webhookSecret: 'whsec_fees' };

describeEachDialect('provider fees and payouts on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let pp: FakePayPal;
  let deps: DonationDeps;
  let close: () => Promise<void>;
  let off: () => void;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    stripe = await startFakeStripe({ port: 0, webhookSecret: KEYS.webhookSecret, webhookUrl: () => 'http://127.0.0.1:1/unused' });
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    await enableEveryMethod(t.db, KEYS.appSecret, { stripeSecretKey: KEYS.secretKey, stripeWebhookSecret: KEYS.webhookSecret, coinGateToken: 'cg-fees' });
    deps = { db: t.db, settings: await getPaymentSettings(t.db, KEYS.appSecret), env: parseEnv({ STRIPE_API_BASE: stripe.url, PAYPAL_API_BASE: pp.url }), publicUrl: 'https://dons.example.org' };
    close = async () => {
      await stripe.close();
      await t.destroy();
    };
    off = registerFeeFetching();
  });
  afterAll(async () => {
    off?.();
    await feesSettled();
    await pp?.close();
    await close?.();
  });

  const webhook = async (e: { payload: string; header: string }) => expect(await handleStripeWebhook(deps, e.payload, e.header)).toEqual({ status: 200, message: 'ok' });
  const RANK: Record<string, number> = { payment: 0, refund: 1, dispute: 2, other: 3 };
  /** A gift's movements: its payment first, then refunds, then disputes (withdrawal before reinstatement). */
  const moves = async (donationId: string) =>
    (await t.db.selectFrom('provider_balance_moves').select(['provider', 'kind', 'gross_minor', 'fee_minor', 'net_minor', 'currency', 'payout_ref']).where('donation_id', '=', donationId).execute()).sort(
      (a, b) => RANK[a.kind] - RANK[b.kind] || a.gross_minor - b.gross_minor,
    );
  async function cardGift(cents: number) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: false, lang: 'fr' });
    await webhook(stripe.complete(donation.provider_ref));
    await feesSettled();
    return { id: donation.id, payment: { paymentIntent: `pi_${donation.provider_ref}` } };
  }

  it('a card gift: its fee and net from the balance transaction, fetched after the webhook; a replay adds nothing; the gift is unchanged', async () => {
    const gift = await cardGift(10000);
    const fee = fakeCardFee(10000);
    expect(fee).toBe(175);
    expect(await moves(gift.id)).toEqual([{ provider: 'stripe', kind: 'payment', gross_minor: 10000, fee_minor: 175, net_minor: 9825, currency: 'EUR', payout_ref: null }]);
    const asked = stripe.requests.find((r) => r.path === `/v1/payment_intents/${gift.payment.paymentIntent}`)!;
    expect(Object.fromEntries(asked.query)).toEqual({ 'expand[0]': 'latest_charge.balance_transaction' });
    const row = await t.db.selectFrom('provider_balance_moves').selectAll().where('donation_id', '=', gift.id).executeTakeFirstOrThrow();
    expect(row.move_ref).toMatch(/^txn_/);
    expect(row.available_at! > row.occurred_at).toBe(true);

    expect(await fetchGiftMoves(deps, (await findById(t.db, gift.id))!)).toBe(0);
    expect(await t.db.selectFrom('provider_balance_moves').selectAll().where('donation_id', '=', gift.id).execute()).toEqual([row]);
    expect(await findById(t.db, gift.id)).toMatchObject({ amount_minor: 10000, status: 'succeeded', fee_eur_cents: 0 });
  });

  it('a refund adds its negative movement; a dispute its withdrawal with the dispute fee, and the reinstatement when won', async () => {
    const refunded = await cardGift(3000);
    await webhook(stripe.refund(refunded.payment));
    await feesSettled();
    expect((await moves(refunded.id)).map((m) => [m.kind, m.gross_minor, m.fee_minor, m.net_minor])).toEqual([
      ['payment', 3000, fakeCardFee(3000), 3000 - fakeCardFee(3000)],
      ['refund', -3000, 0, -3000],
    ]);

    const disputed = await cardGift(5000);
    await webhook(stripe.dispute(disputed.payment, 'needs_response'));
    // An open dispute publishes no payment event: the catch-up finds the dispute without its movement.
    expect((await giftsMissingMoves(t.db)).map((g) => g.id)).toContain(disputed.id);
    await catchUpFees(deps);
    await webhook(stripe.dispute(disputed.payment, 'won', { type: 'charge.dispute.closed' }));
    await fetchGiftMoves(deps, (await findById(t.db, disputed.id))!);
    expect((await moves(disputed.id)).map((m) => [m.kind, m.gross_minor, m.fee_minor, m.net_minor])).toEqual([
      ['payment', 5000, fakeCardFee(5000), 5000 - fakeCardFee(5000)],
      ['dispute', -5000, DISPUTE_FEE, -5000 - DISPUTE_FEE],
      ['dispute', 5000, -DISPUTE_FEE, 5000 + DISPUTE_FEE],
    ]);
    expect((await giftsMissingMoves(t.db)).map((g) => g.id)).not.toContain(disputed.id);
  });

  it('a PayPal gift: the fee from the capture’s seller_receivable_breakdown; its refund from seller_payable_breakdown', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 2000, lang: 'fr' });
    pp.approve(orderId);
    expect(await capturePayPalDonation(deps, orderId)).toMatchObject({ status: 'succeeded' });
    await feesSettled();
    const fee = fakePayPalFee(2000);
    expect(await moves(donation.id)).toEqual([{ provider: 'paypal', kind: 'payment', gross_minor: 2000, fee_minor: fee, net_minor: 2000 - fee, currency: 'EUR', payout_ref: null }]);
    expect(pp.requests.some((r) => r.method === 'GET' && /^\/v2\/payments\/captures\/CAP\d+$/.test(r.path))).toBe(true);

    pp.refund(orderId);
    const body = JSON.stringify({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource_type: 'capture', resource: { supplementary_data: { related_ids: { order_id: orderId } } } });
    expect(await handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body)))).toMatchObject({ status: 200 });
    await feesSettled();
    expect((await moves(donation.id)).map((m) => [m.kind, m.gross_minor, m.fee_minor, m.net_minor])).toEqual([
      ['payment', 2000, fee, 2000 - fee],
      ['refund', -2000, 0, -2000],
    ]);
  });

  it('the catch-up job fetches a gift whose background fetch failed, and the payouts with the movements they carried', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 2500, lang: 'fr', monthly: false });
    // Stripe is down when the background fetch asks (the SDK tries twice); the webhook's answer is not affected.
    stripe.failNext = 2;
    await webhook(stripe.complete(donation.provider_ref));
    await feesSettled();
    stripe.failNext = 0;
    expect(await moves(donation.id)).toEqual([]);
    expect(await findById(t.db, donation.id)).toMatchObject({ status: 'succeeded' });
    expect((await giftsMissingMoves(t.db)).map((g) => g.id)).toEqual([donation.id]);

    const payout = stripe.payout();
    const run = await catchUpFees(deps);
    expect(run.payouts).toBeGreaterThanOrEqual(1);
    expect(await moves(donation.id)).toEqual([{ provider: 'stripe', kind: 'payment', gross_minor: 2500, fee_minor: fakeCardFee(2500), net_minor: 2500 - fakeCardFee(2500), currency: 'EUR', payout_ref: payout.id }]);
    expect(await giftsMissingMoves(t.db)).toEqual([]);
    const stored = await t.db.selectFrom('provider_payouts').selectAll().where('payout_ref', '=', payout.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ provider: 'stripe', amount_minor: payout.amount, currency: 'EUR', status: 'paid' });

    // Every Stripe movement so far is in it: the sum of their nets is what reaches the bank.
    const [shown] = (await payoutsBetween(t.db, '2000-01-01', '2999-12-31')).filter((p) => p.ref === payout.id);
    expect(shown.netSum).toBe(payout.amount);
    expect(shown.difference).toBe(0);
    expect(shown.moves.filter((m) => m.donationId).length).toBe(shown.moves.length);

    // A second run changes nothing; a payout's new status is updated.
    const before = await t.db.selectFrom('provider_balance_moves').selectAll().orderBy('id').execute();
    await catchUpFees(deps);
    expect(await t.db.selectFrom('provider_balance_moves').selectAll().orderBy('id').execute()).toEqual(before);
    stripe.payouts.get(payout.id).status = 'failed';
    await catchUpFees(deps);
    expect((await t.db.selectFrom('provider_payouts').select('status').where('payout_ref', '=', payout.id).executeTakeFirstOrThrow()).status).toBe('failed');
  });

  it('fee totals per provider over a period', async () => {
    const totals = await feeTotals(t.db, '2000-01-01', '2999-12-31');
    const stripeEur = totals.find((x) => x.provider === 'stripe' && x.currency === 'EUR')!;
    const rows = await t.db.selectFrom('provider_balance_moves').select(['fee_minor', 'gross_minor', 'net_minor']).where('provider', '=', 'stripe').execute();
    expect(stripeEur.feeMinor).toBe(rows.reduce((s, r) => s + r.fee_minor, 0));
    expect(stripeEur.grossMinor - stripeEur.feeMinor).toBe(stripeEur.netMinor);
    expect(totals.find((x) => x.provider === 'paypal')!.feeMinor).toBe(fakePayPalFee(2000));
    expect(await feeTotals(t.db, '2000-01-01', '2000-12-31')).toEqual([]);
  });
});

it('the payout screen’s period: 90 days back and 14 ahead by default, a wrong or reversed one refused with a French message', async () => {
  const { payoutPeriod } = await import('~/domain/donations/payouts.server');
  const q = (s: string) => new URLSearchParams(s);
  expect(payoutPeriod(q(''), '2026-03-01')).toEqual({ from: '2025-12-01', to: '2026-03-15', error: null });
  expect(payoutPeriod(q('du=2026-01-01&au=2026-01-31'), '2026-03-01')).toEqual({ from: '2026-01-01', to: '2026-01-31', error: null });
  expect(payoutPeriod(q('du=2026-02-30'), '2026-03-01')).toEqual({ from: '2025-12-01', to: '2026-03-15', error: 'Saisissez des dates valides (jj/mm/aaaa).' });
  expect(payoutPeriod(q('du=2026-02-01&au=2026-01-01'), '2026-03-01').error).toBe('La date de début doit précéder la date de fin.');
});
