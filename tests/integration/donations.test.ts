import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recentActivity } from '~/domain/audit/audit.server';
import { dashboardStats } from '~/domain/dashboard/stats.server';
import { findById, findByRef, listDonations } from '~/domain/donations/ledger.server';
import { getPaymentSettings, savePaymentSettings, toPublic, availableMethods } from '~/domain/donations/payment-settings.server';
import { ProviderError } from '~/domain/donations/providers/types';
import {
  cancelAttempt,
  confirmStripeSession,
  handleCoinGateCallback,
  handleStripeWebhook,
  recheckPending,
  startCardDonation,
  startCryptoDonation,
  type DonationDeps,
} from '~/domain/donations/service.server';
import { parseEnv } from '~/lib/env.server';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const APP_SECRET = 'test-secret-'.padEnd(48, 'z');
const WHSEC = 'whsec_test_secret';
const CG_TOKEN = 'cg-auth-token';

describeEachDialect('donations ledger on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let coingate: FakeCoinGate;
  let deps: DonationDeps;
  // Port 0: the fakes take free ports (other test runs may be using any fixed one).
  const port = 0;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    stripe = await startFakeStripe({ port, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
    coingate = await startFakeCoinGate({ port, authToken: CG_TOKEN });
    const form = {
      stripe: { enabled: true, publishableKey: 'pk_test_1', products: [{ id: 'p1', name: '20 €', amount: '20', priceId: 'price_20', active: true }] },
      paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' as const },
      coingate: { enabled: true, mode: 'sandbox' as const },
      mobileMoney: { enabled: false, integrationType: 'api' as const, provider: 'flutterwave' as const, publicKey: '', currency: 'XOF' as const, paymentUrl: '' },
    };
    const saved = await savePaymentSettings(t.db, APP_SECRET, form, { set: { 'stripe.secretKey': 'sk_test_123', 'stripe.webhookSecret': WHSEC, 'coingate.authToken': CG_TOKEN }, clear: [] }, 0);
    if (!saved.ok) throw new Error('save failed');
    deps = {
      db: t.db,
      settings: await getPaymentSettings(t.db, APP_SECRET),
      env: parseEnv({ STRIPE_API_BASE: stripe.url, COINGATE_API_BASE: coingate.url }),
      publicUrl: 'https://dons.example.org',
    };
  });
  afterAll(async () => {
    await stripe?.close();
    await coingate?.close();
    await t?.destroy();
  });
  beforeEach(() => {
    stripe.failNext = 0;
  });

  const receipts = async (to = 'donor@example.org') => (await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', to).execute()).length;

  it('keeps secrets encrypted at rest and out of the public view', async () => {
    const row = await t.db.selectFrom('settings').select('value').where('key', '=', 'payments').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('sk_test_123');
    expect(row.value).not.toContain(WHSEC);
    expect(row.value).not.toContain(CG_TOKEN);
    const pub = JSON.stringify(toPublic(deps.settings));
    expect(pub).not.toContain('sk_test_123');
    expect(toPublic(deps.settings).stripe.secretKeySet).toBe(true);
    expect(availableMethods(deps.settings)).toEqual({ card: true, paypal: false, crypto: true, mobileMoney: false });
    // Saving again without new values keeps the secrets; a stale version is refused.
    const again = await savePaymentSettings(t.db, APP_SECRET, deps.settings, { set: {}, clear: [] }, deps.settings.version);
    expect(again.ok && again.settings.secrets['stripe.secretKey']).toBe('sk_test_123');
    expect((await savePaymentSettings(t.db, APP_SECRET, deps.settings, { set: {}, clear: [] }, deps.settings.version)).ok).toBe(false);
    deps.settings = await getPaymentSettings(t.db, APP_SECRET);
  });

  it('creates a Checkout Session for a preset and counts the signed webhook once, however often it is replayed', async () => {
    const before = await receipts();
    const { url, donation } = await startCardDonation(deps, { amountCents: 2000, priceId: 'price_20', monthly: false, lang: 'en' });
    expect(url).toMatch(`${stripe.url}/pay/`);
    const sent = stripe.requests.at(-1)!;
    expect(sent.body).toContain('mode=payment');
    expect(sent.body).toContain('submit_type=donate');
    expect(sent.body).toContain('line_items[0][price]=price_20');
    expect(decodeURIComponent(sent.body)).toContain('success_url=https://dons.example.org/payment/success?session_id={CHECKOUT_SESSION_ID}');
    expect((await findById(t.db, donation.id))?.status).toBe('pending');

    const { payload, header } = stripe.complete(donation.provider_ref);
    for (let i = 0; i < 10; i++) expect(await handleStripeWebhook(deps, payload, header)).toEqual({ status: 200, message: 'ok' });
    const row = await findById(t.db, donation.id);
    expect(row).toMatchObject({ status: 'succeeded', amount_minor: 2000, eur_cents: 2000, donor_email: 'donor@example.org' });
    expect(await receipts()).toBe(before + 1);
    const mail = await t.db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Receipt for your donation to the THV Foundation');
    expect(mail.text).toContain('€20.00');
    expect((await listDonations(t.db, { provider: 'stripe', status: 'succeeded' })).filter((d) => d.id === donation.id)).toHaveLength(1);
    // The dashboard's 'Activité Récente' shows the gift once, however often the event came.
    const activity = (await recentActivity(t.db, 50)).filter((a) => a.details.donation === donation.id);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ action: 'donation.succeeded', target: '20.00 EUR (stripe)', userName: 'Paiement en ligne' });
  });

  it('refuses bad, missing or foreign signatures and tampered bodies without changing anything', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1500, monthly: false, lang: 'fr' });
    const { payload, header } = stripe.complete(donation.provider_ref);
    expect((await handleStripeWebhook(deps, payload.replace('1500', '150000'), header)).status).toBe(400);
    expect((await handleStripeWebhook(deps, payload, null)).status).toBe(400);
    expect((await handleStripeWebhook(deps, payload, stripe.sign(payload, 'whsec_other'))).status).toBe(400);
    expect((await findById(t.db, donation.id))?.status).toBe('pending');
  });

  it('fails an attempt whose paid amount or currency does not match', async () => {
    const a = await startCardDonation(deps, { amountCents: 3000, monthly: false, lang: 'fr' });
    const ev = stripe.complete(a.donation.provider_ref, { amount_total: 100 });
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect(await findById(t.db, a.donation.id)).toMatchObject({ status: 'failed' });
    const b = await startCardDonation(deps, { amountCents: 3000, monthly: false, lang: 'fr' });
    const ev2 = stripe.complete(b.donation.provider_ref, { currency: 'usd' });
    await handleStripeWebhook(deps, ev2.payload, ev2.header);
    expect(await findById(t.db, b.donation.id)).toMatchObject({ status: 'failed' });
  });

  it('ignores an event about an unknown session', async () => {
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_unknown', status: 'complete', payment_status: 'paid', amount_total: 2000, currency: 'eur' } } });
    const count = (await listDonations(t.db, {})).length;
    expect((await handleStripeWebhook(deps, payload, stripe.sign(payload))).status).toBe(200);
    expect(await findByRef(t.db, 'stripe', 'cs_unknown')).toBeUndefined();
    expect((await listDonations(t.db, {})).length).toBe(count);
  });

  it('sends monthly gifts as a subscription and records each renewal invoice once', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1000, monthly: true, lang: 'es' });
    expect(stripe.requests.at(-1)!.body).toContain('mode=subscription');
    expect(stripe.requests.at(-1)!.body).toContain('[recurring][interval]=month');
    const ev = stripe.complete(donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect(await findById(t.db, donation.id)).toMatchObject({ status: 'succeeded', frequency: 'monthly', secondary_ref: `sub_${donation.provider_ref}` });
    const invoice = (id: string, reason: string) =>
      JSON.stringify({ id: `evt_${id}`, object: 'event', type: 'invoice.paid', data: { object: { id, object: 'invoice', billing_reason: reason, amount_paid: 1000, currency: 'eur', customer_email: 'donor@example.org', parent: { subscription_details: { subscription: `sub_${donation.provider_ref}` } } } } });
    const first = invoice('in_first', 'subscription_create');
    await handleStripeWebhook(deps, first, stripe.sign(first));
    const renewal = invoice('in_renewal', 'subscription_cycle');
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, renewal, stripe.sign(renewal));
    expect(await findByRef(t.db, 'stripe', 'in_first')).toBeUndefined();
    expect(await findByRef(t.db, 'stripe', 'in_renewal')).toMatchObject({ status: 'succeeded', amount_minor: 1000, frequency: 'monthly', language: 'es' });
  });

  it('marks a refunded charge refunded', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 4200, monthly: false, lang: 'fr' });
    const ev = stripe.complete(donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const refund = JSON.stringify({ id: 'evt_r', object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', refunded: true, payment_intent: `pi_${donation.provider_ref}` } } });
    await handleStripeWebhook(deps, refund, stripe.sign(refund));
    expect((await findById(t.db, donation.id))?.status).toBe('refunded');
    // A late replay of the completion does not bring it back.
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect((await findById(t.db, donation.id))?.status).toBe('refunded');
  });

  it('leaves a failed row, never a succeeded one, when Stripe is down', async () => {
    stripe.failNext = 5;
    const before = await listDonations(t.db, { provider: 'stripe', status: 'failed' });
    await expect(startCardDonation(deps, { amountCents: 2000, monthly: false, lang: 'fr' })).rejects.toBeInstanceOf(ProviderError);
    const after = await listDonations(t.db, { provider: 'stripe', status: 'failed' });
    expect(after.length).toBe(before.length + 1);
    expect(after[0].error).toBe('Stripe is down');
  });

  it('confirms on the success page and on re-check when the webhook was lost (restart between checkout and webhook)', async () => {
    const a = await startCardDonation(deps, { amountCents: 2500, monthly: false, lang: 'fr' });
    stripe.complete(a.donation.provider_ref); // paid at Stripe; the webhook never arrives
    expect(await confirmStripeSession(deps, a.donation.provider_ref)).toMatchObject({ status: 'succeeded', amount_minor: 2500 });
    const b = await startCardDonation(deps, { amountCents: 2600, monthly: false, lang: 'fr' });
    stripe.complete(b.donation.provider_ref);
    // Within its first minute a periodic run leaves it alone; the run at start asks at once.
    await recheckPending(deps);
    expect((await findById(t.db, b.donation.id))?.status).toBe('pending');
    await recheckPending(deps, new Date(), 0);
    expect((await findById(t.db, b.donation.id))?.status).toBe('succeeded');
  });

  it('marks an attempt cancelled from the cancel page, and a later verified payment still counts', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 700, monthly: false, lang: 'fr' });
    await cancelAttempt(t.db, donation.id);
    expect((await findById(t.db, donation.id))?.status).toBe('cancelled');
    const ev = stripe.complete(donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect((await findById(t.db, donation.id))?.status).toBe('succeeded');
  });

  it('creates CoinGate orders and trusts a callback only with its token and after a re-fetch', async () => {
    const { url, donation } = await startCryptoDonation(deps, { amountCents: 2000, lang: 'fr' });
    expect(url).toBe(`${coingate.url}/invoice/${donation.provider_ref}`);
    const order = coingate.orders.get(donation.provider_ref);
    expect(order).toMatchObject({ price_amount: '20.00', price_currency: 'EUR', receive_currency: 'EUR', order_id: donation.id, callback_url: 'https://dons.example.org/webhooks/coingate' });
    const form = (fields: Record<string, string>) => new URLSearchParams({ id: donation.provider_ref, order_id: donation.id, status: 'paid', price_amount: '20.00', price_currency: 'EUR', token: order.token, ...fields });
    // The callback says paid but CoinGate says new: nothing counts.
    expect((await handleCoinGateCallback(deps, form({}))).status).toBe(200);
    expect((await findById(t.db, donation.id))?.status).toBe('pending');
    // A wrong token or an unknown order: refused.
    order.status = 'paid';
    expect((await handleCoinGateCallback(deps, form({ token: 'nope' }))).status).toBe(400);
    expect((await handleCoinGateCallback(deps, form({ id: '999999' }))).status).toBe(400);
    expect((await findById(t.db, donation.id))?.status).toBe('pending');
    for (let i = 0; i < 5; i++) expect((await handleCoinGateCallback(deps, form({}))).status).toBe(200);
    expect((await findById(t.db, donation.id))?.status).toBe('succeeded');
  });

  it('sends the thank-you of a crypto gift to the address the donor typed, on confirmation only (#19)', async () => {
    const mails = async (to: string) => (await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', to).execute());
    const { donation } = await startCryptoDonation(deps, { amountCents: 1550, lang: 'en', email: 'crypto.donor@example.org' });
    expect(donation.donor_email).toBe('crypto.donor@example.org');
    const order = coingate.orders.get(donation.provider_ref);
    const callback = () => handleCoinGateCallback(deps, new URLSearchParams({ id: donation.provider_ref, token: order.token }));
    await callback();
    expect(await mails('crypto.donor@example.org')).toEqual([]);
    order.status = 'paid';
    await callback();
    await callback();
    const sent = await mails('crypto.donor@example.org');
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe('Receipt for your donation to the THV Foundation');
    expect(sent[0].text).toContain('€15.50');
    // Without an address: the gift counts, and no mail is written for it.
    const before = (await t.db.selectFrom('mail_outbox').select('id').execute()).length;
    const anonymous = await startCryptoDonation(deps, { amountCents: 1200, lang: 'fr' });
    const anonymousOrder = coingate.orders.get(anonymous.donation.provider_ref);
    anonymousOrder.status = 'paid';
    await handleCoinGateCallback(deps, new URLSearchParams({ id: anonymous.donation.provider_ref, token: anonymousOrder.token }));
    expect((await findById(t.db, anonymous.donation.id))?.status).toBe('succeeded');
    expect((await t.db.selectFrom('mail_outbox').select('id').execute()).length).toBe(before);
  });

  it('refuses a CoinGate order paid for another amount', async () => {
    const { donation } = await startCryptoDonation(deps, { amountCents: 5000, lang: 'fr' });
    const order = coingate.orders.get(donation.provider_ref);
    Object.assign(order, { status: 'paid', price_amount: '5.00' });
    await handleCoinGateCallback(deps, new URLSearchParams({ id: donation.provider_ref, token: order.token }));
    expect((await findById(t.db, donation.id))?.status).toBe('failed');
  });

  it('sums this month’s succeeded donations in EUR on the dashboard', async () => {
    const rows = await listDonations(t.db, { status: 'succeeded' });
    const expected = rows.reduce((s, d) => s + (d.eur_cents ?? 0), 0) / 100;
    expect(expected).toBeGreaterThan(0);
    expect((await dashboardStats(t.db)).donationsThisMonthEur).toBe(expected);
    const nextMonth = new Date();
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    expect((await dashboardStats(t.db, nextMonth)).donationsThisMonthEur).toBe(0);
  });
});
