import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recentActivity } from '~/domain/audit/audit.server';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { dashboardStats } from '~/domain/dashboard/stats.server';
import { createAttempt, findById, findByRef, listDonations, transition } from '~/domain/donations/ledger.server';
import { getPaymentSettings, savePaymentSettings, toPublic, availableMethods } from '~/domain/donations/providers/settings.server';
import { ProviderError } from '~/domain/donations/providers/types';
import {
  cancelAttempt,
  confirmStripeSession,
  handleCoinGateCallback,
  handleStripeWebhook,
  recheckPending,
  sendReceipt,
  startCardDonation,
  startCryptoDonation,
  startLinkDonation,
  type DonationDeps,
} from '../support/payment-entry';
import { settle } from '~/domain/donations/payments.server';
import { parseEnv } from '~/lib/env.server';
import { setLogSink } from '~/lib/log.server';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { campaignInput } from '../support/campaigns';
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
    // The donor comes back to the thank-you page in their language (an English gift: /en/…).
    expect(decodeURIComponent(sent.body)).toContain('success_url=https://dons.example.org/en/payment/success?session_id={CHECKOUT_SESSION_ID}');
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
    await cancelAttempt(deps, donation.id);
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

  // Below: rows dated outside this month (after the dashboard's sum above).

  it('thanks the donor once, in their language (French otherwise), by name or as a friend, escaped in HTML', async () => {
    const mails = (to: string) => t.db.selectFrom('mail_outbox').select(['subject', 'text', 'html']).where('to', '=', to).execute();
    const paid = async (language: string, donorName: string | null, donorEmail: string | null) => {
      const d = await createAttempt(t.db, { provider: 'stripe', amountMinor: 1234, currency: 'EUR', eurCents: 1234, frequency: 'once', language, donorName, donorEmail });
      await transition(t.db, { id: d.id }, 'succeeded');
      await t.db.updateTable('donations').set({ succeeded_at: '2030-03-05T23:30:00.000Z', updated_at: '2030-04-01T10:00:00.000Z' }).where('id', '=', d.id).execute();
      return (await findById(t.db, d.id))!;
    };
    const a = await paid('xx', '<Awa & "Co">', 'merci.a@example.org');
    await sendReceipt(deps, a);
    await sendReceipt(deps, a);
    const body = 'Nous avons bien reçu votre don de 12,34\u00a0€ le 5 mars 2030. Merci pour votre générosité !';
    expect(await mails('merci.a@example.org')).toEqual([
      {
        subject: 'Reçu de votre don à la Fondation THV',
        text: ['Bonjour <Awa & "Co">,', '', body, `Référence : ${a.id}`, '', 'L’équipe de la Fondation THV'].join('\n'),
        html: ['<p>Bonjour &#60;Awa &#38; &#34;Co&#34;&#62;,</p>', '', `<p>${body}</p>`, `<p>Référence : ${a.id}</p>`, '', '<p>L’équipe de la Fondation THV</p>'].join('\n'),
      },
    ]);
    const b = await paid('en', null, 'merci.b@example.org');
    await sendReceipt(deps, b);
    expect((await mails('merci.b@example.org'))[0].text).toMatch(/^Hello dear donor,\n\nWe have received your donation of €12.34 on March 5, 2030\./);
    // No address, or a gift that has not succeeded: no mail.
    const before = (await t.db.selectFrom('mail_outbox').select('id').execute()).length;
    await sendReceipt(deps, await paid('fr', 'Sans adresse', null));
    const pending = await createAttempt(t.db, { provider: 'stripe', amountMinor: 500, currency: 'EUR', eurCents: 500, frequency: 'once', language: 'fr', donorEmail: 'merci.c@example.org' });
    await sendReceipt(deps, pending);
    expect((await t.db.selectFrom('mail_outbox').select('id').execute()).length).toBe(before);
  });

  it('sends a mobile money donor to the payment link, recording an attempt nobody can verify', async () => {
    const withLink = (paymentUrl: string) => ({ ...deps, settings: { ...deps.settings, mobileMoney: { ...deps.settings.mobileMoney, paymentUrl } } });
    const { url, donation } = await startLinkDonation(withLink('https://flutterwave.com/pay/thv'), { lang: 'es' });
    expect(url).toBe('https://flutterwave.com/pay/thv');
    expect(await findById(t.db, donation.id)).toMatchObject({ provider: 'mobile_link', amount_minor: 0, currency: 'EUR', eur_cents: null, frequency: 'once', language: 'es', verifiable: 0, status: 'pending' });
    expect((await startLinkDonation(withLink('http://pay.example/thv'), { lang: 'fr' })).url).toBe('http://pay.example/thv');
    for (const bad of ['', 'ftp://pay.example/thv', 'javascript:alert(1)//https://x', 'pay.example/https://x'])
      await expect(startLinkDonation(withLink(bad), { lang: 'fr' }), bad).rejects.toThrow(new ProviderError('mobile_link', 'lien de paiement absent'));
  });

  it('refuses to call Stripe or CoinGate without their secret, leaving the attempt failed with the reason', async () => {
    const none = { ...deps, settings: { ...deps.settings, secrets: {} } };
    for (const start of [() => startCardDonation(none, { amountCents: 900, monthly: false, lang: 'fr' }), () => startCryptoDonation(none, { amountCents: 900, lang: 'fr' })]) {
      const error = await start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).message).toBe('configuration incomplète');
    }
    expect(await startCardDonation(none, { amountCents: 900, monthly: false, lang: 'fr' }).catch((e: ProviderError) => e.provider)).toBe('stripe');
    expect(await startCryptoDonation(none, { amountCents: 900, lang: 'fr' }).catch((e: ProviderError) => e.provider)).toBe('coingate');
    const failed = (await listDonations(t.db, { status: 'failed' })).filter((d) => d.amount_minor === 900);
    expect(failed.map((d) => [d.provider, d.error]).sort()).toEqual([
      ['coingate', 'configuration incomplète'],
      ['coingate', 'configuration incomplète'],
      ['stripe', 'configuration incomplète'],
      ['stripe', 'configuration incomplète'],
    ]);
    expect(await handleStripeWebhook(none, '{}', 'sig')).toEqual({ status: 400, message: 'webhook secret not configured' });
    expect(await handleStripeWebhook(deps, '{}', 'sig')).toEqual({ status: 400, message: 'invalid signature' });
  });

  it('reads every Checkout outcome: a debit processing then paid, failed later, expired; an unpaid completion keeps the payment reference', async () => {
    const event = (type: string, session: object) => {
      const payload = JSON.stringify({ id: `evt_${type}`, object: 'event', type, data: { object: session } });
      return handleStripeWebhook(deps, payload, stripe.sign(payload));
    };
    const start = async () => (await startCardDonation(deps, { amountCents: 1100, monthly: false, lang: 'fr' })).donation;
    const late = await start();
    expect(await handleStripeWebhook(deps, ...Object.values(stripe.completeDebit(late.provider_ref)) as [string, string])).toEqual({ status: 200, message: 'ok' });
    expect(await findById(t.db, late.id)).toMatchObject({ status: 'processing', secondary_ref: `pi_${late.provider_ref}` });
    const paid = stripe.settleDebit(late.provider_ref, 'succeeded');
    await handleStripeWebhook(deps, paid.payload, paid.header);
    expect((await findById(t.db, late.id))?.status).toBe('succeeded');
    // Completed unpaid, its PaymentIntent not processing (still asking the payer something): nothing final, the reference kept.
    const waiting = await start();
    const completed = stripe.completeDebit(waiting.provider_ref);
    stripe.paymentIntents.get(`pi_${waiting.provider_ref}`).status = 'requires_action';
    await handleStripeWebhook(deps, completed.payload, completed.header);
    expect(await findById(t.db, waiting.id)).toMatchObject({ status: 'pending', secondary_ref: `pi_${waiting.provider_ref}` });
    const refused = await start();
    stripe.completeDebit(refused.provider_ref);
    const failed = stripe.settleDebit(refused.provider_ref, 'failed');
    await handleStripeWebhook(deps, failed.payload, failed.header);
    expect((await findById(t.db, refused.id))?.status).toBe('failed');
    const expired = await start();
    await event('checkout.session.expired', { ...stripe.sessions.get(expired.provider_ref), status: 'expired' });
    expect((await findById(t.db, expired.id))?.status).toBe('cancelled');
  });

  it('refunds only a fully refunded charge, whether Stripe names its payment or sends it whole', async () => {
    const paidGift = async () => {
      const { donation } = await startCardDonation(deps, { amountCents: 1300, monthly: false, lang: 'fr' });
      const ev = stripe.complete(donation.provider_ref);
      await handleStripeWebhook(deps, ev.payload, ev.header);
      return donation;
    };
    const refund = (charge: object) => {
      const payload = JSON.stringify({ id: 'evt_refund', object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', ...charge } } });
      return handleStripeWebhook(deps, payload, stripe.sign(payload));
    };
    const partly = await paidGift();
    await refund({ refunded: false, payment_intent: `pi_${partly.provider_ref}` });
    await refund({ refunded: true, payment_intent: null });
    expect((await findById(t.db, partly.id))?.status).toBe('succeeded');
    await refund({ refunded: true, payment_intent: { id: `pi_${partly.provider_ref}`, object: 'payment_intent' } });
    expect((await findById(t.db, partly.id))?.status).toBe('refunded');
    // A one-off gift is known by its PaymentIntent: Stripe is not asked anything.
    expect(stripe.requests.filter((r) => r.path.startsWith('/v1/invoice'))).toEqual([]);
  });

  it('refunds a monthly instalment only when Stripe says the charge paid its invoice; asks again when Stripe is down', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1100, monthly: true, lang: 'fr' });
    const ev = stripe.complete(donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const session = stripe.sessions.get(donation.provider_ref);
    const webhook = (e: { payload: string; header: string }) => handleStripeWebhook(deps, e.payload, e.header);
    const status = async () => (await findById(t.db, donation.id))?.status;
    // A renewal whose invoice.paid never reached us, refunded: not the first gift's money.
    const missed = stripe.renew(session.subscription);
    expect(await webhook(stripe.refund({ invoice: missed.invoice.id }))).toEqual({ status: 200, message: 'ok' });
    expect(await findByRef(t.db, 'stripe', missed.invoice.id)).toBeUndefined();
    // A payment that paid no invoice (another product on the account), or an invoice of no subscription of ours.
    expect(await webhook(stripe.event('charge.refunded', { id: 'ch_x', object: 'charge', refunded: true, payment_intent: 'pi_elsewhere' }))).toEqual({ status: 200, message: 'ok' });
    stripe.invoices.set('in_other', { id: 'in_other', object: 'invoice', billing_reason: 'subscription_create', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_other' } } });
    stripe.invoices.set('in_manual', { id: 'in_manual', object: 'invoice', billing_reason: 'subscription_create', parent: null });
    await webhook(stripe.event('charge.refunded', { id: 'ch_y', object: 'charge', refunded: true, payment_intent: 'pi_y', invoice: 'in_other' }));
    await webhook(stripe.event('charge.refunded', { id: 'ch_z', object: 'charge', refunded: true, payment_intent: 'pi_z', invoice: 'in_manual' }));
    expect(await status()).toBe('succeeded');

    // Stripe cannot say which invoice was paid: the webhook fails (503, Stripe sends it again) and nothing moves.
    const refund = stripe.refund({ invoice: session.invoice });
    stripe.failNext = 5;
    await expect(webhook(refund)).rejects.toBeInstanceOf(ProviderError);
    stripe.failNext = 0;
    expect(await status()).toBe('succeeded');
    expect(await webhook(refund)).toEqual({ status: 200, message: 'ok' });
    expect(await status()).toBe('refunded');
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/invoice_payments' });
    expect(Object.fromEntries(stripe.requests.at(-1)!.query)).toEqual({ 'payment[type]': 'payment_intent', 'payment[payment_intent]': refund.charge.payment_intent, 'expand[0]': 'data.invoice', limit: '1' });
  });

  it('records a renewal in EUR only, for the first gift\'s campaign (open), with its fees only when the amount is unchanged', async () => {
    // Renewals count for the campaign while it takes gifts (campaigns.test.ts: once it has ended, they are general gifts).
    const saved = await saveCampaign(t.db, { id: null, name: 'Test' }, null, campaignInput('camp-renew', { fr: 'Renouvellements', en: 'Renewals', es: 'Renovaciones' }));
    if (!('campaign' in saved)) throw new Error('campaign not saved');
    const campaignId = saved.campaign.id;
    const { donation } = await startCardDonation(deps, { amountCents: 1030, monthly: true, lang: 'fr', gift: { campaignId, feeEurCents: 30 } });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email: 'premier@example.org', name: 'Premier' } });
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const sub = `sub_${donation.provider_ref}`;
    const invoice = (id: string, fields: object) => {
      const payload = JSON.stringify({ id: `evt_${id}`, object: 'event', type: 'invoice.paid', data: { object: { id, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 1030, currency: 'eur', customer_email: null, ...fields } } });
      return handleStripeWebhook(deps, payload, stripe.sign(payload));
    };
    await invoice('in_same', { subscription: sub });
    expect(await findByRef(t.db, 'stripe', 'in_same')).toMatchObject({ campaign_id: campaignId, fee_eur_cents: 30, donor_email: 'premier@example.org', secondary_ref: sub });
    await invoice('in_more', { amount_paid: 2000, customer_email: 'nouveau@example.org', parent: { subscription_details: { subscription: { id: sub, object: 'subscription' } } } });
    expect(await findByRef(t.db, 'stripe', 'in_more')).toMatchObject({ campaign_id: campaignId, fee_eur_cents: 0, amount_minor: 2000, donor_email: 'nouveau@example.org' });
    expect(await invoice('in_none', {})).toEqual({ status: 200, message: 'ok' });
    await invoice('in_usd', { subscription: sub, currency: 'usd' });
    await invoice('in_unknown', { subscription: 'sub_inconnue' });
    expect(await findByRef(t.db, 'stripe', 'in_usd')).toBeUndefined();
    expect(await findByRef(t.db, 'stripe', 'in_unknown')).toBeUndefined();
  });

  it('says why a mismatched payment failed, and leaves unknown or unsettled ones alone', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1400, monthly: false, lang: 'fr' });
    const wrong = await settle(deps, 'stripe', { ref: donation.provider_ref, status: 'succeeded', amountMinor: 140, currency: 'EUR' });
    expect(wrong.donation).toMatchObject({ status: 'failed', error: 'Montant ou devise inattendus : 140 EUR' });
    const other = await startCardDonation(deps, { amountCents: 1400, monthly: false, lang: 'fr' });
    await settle(deps, 'stripe', { ref: other.donation.provider_ref, status: 'succeeded', amountMinor: null, currency: null });
    expect((await findById(t.db, other.donation.id))?.error).toBe('Montant ou devise inattendus : ? ?');
    expect(await settle(deps, 'stripe', { ref: 'cs_nobody', status: 'succeeded', amountMinor: 1400, currency: 'EUR' })).toEqual({ changed: false });
    const open = await startCardDonation(deps, { amountCents: 1400, monthly: false, lang: 'fr' });
    expect(await settle(deps, 'stripe', { ref: open.donation.provider_ref, status: null, amountMinor: null, currency: null, secondaryRef: 'pi_open' })).toEqual({ changed: false });
    expect(await settle(deps, 'stripe', { ref: open.donation.provider_ref, status: null, amountMinor: null, currency: null, secondaryRef: 'pi_later' })).toEqual({ changed: false });
    expect((await findById(t.db, open.donation.id))?.secondary_ref).toBe('pi_open');
  });

  it('asks Stripe again from the success page only while a gift is unsettled, a cancelled one included', async () => {
    expect(await confirmStripeSession(deps, 'cs_nobody')).toBeUndefined();
    const { donation } = await startCardDonation(deps, { amountCents: 1500, monthly: false, lang: 'fr' });
    await cancelAttempt(deps, donation.id);
    stripe.complete(donation.provider_ref);
    expect((await confirmStripeSession(deps, donation.provider_ref))?.status).toBe('succeeded');
    const asked = stripe.requests.length;
    expect((await confirmStripeSession(deps, donation.provider_ref))?.status).toBe('succeeded');
    expect(stripe.requests.length).toBe(asked);
  });

  it('re-checks the attempts of the last seven days, closes those abandoned after that, and skips a provider that is down', async () => {
    // A month ago: the attempts other tests left pending are then in the future, neither re-checked nor closed.
    const now = new Date(Date.now() - 30 * 86_400_000);
    const aged = async (days: number) => {
      const { donation } = await startCardDonation(deps, { amountCents: 1600, monthly: false, lang: 'fr' });
      await t.db.updateTable('donations').set({ created_at: new Date(now.getTime() - days * 86_400_000).toISOString() }).where('id', '=', donation.id).execute();
      return donation;
    };
    const recent = await aged(6.9);
    const abandoned = await aged(7.1);
    const paidLate = await aged(8);
    stripe.complete(recent.provider_ref);
    stripe.complete(paidLate.provider_ref);
    /** The lines written to the log while `run` runs, parsed (any level); `withMsg` keeps those of one message. */
    const logged = async (run: () => Promise<unknown>): Promise<{ msg: string }[]> => {
      const lines: string[] = [];
      const restoreLog = setLogSink((_level, line) => void lines.push(line));
      try {
        await run();
      } finally {
        setLogSink(restoreLog);
      }
      return lines.map((l) => JSON.parse(l));
    };
    const withMsg = (lines: { msg: string }[], msg: string) => lines.filter((l) => l.msg === msg);
    const CLOSED = 'abandoned payment attempt closed';
    const closed = (id: string) => expect.objectContaining({ donationId: id, provider: 'stripe' });
    // All three are asked about; the two past their week once more, for the last time.
    const first = await logged(async () => expect(await recheckPending(deps, now)).toBe(3));
    expect(withMsg(first, CLOSED)).toEqual([closed(abandoned.id)]);
    expect((await findById(t.db, recent.id))?.status).toBe('succeeded');
    expect((await findById(t.db, abandoned.id))?.status).toBe('cancelled');
    expect((await findById(t.db, paidLate.id))?.status).toBe('succeeded');
    const asked = stripe.requests.length;
    expect(await recheckPending(deps, now)).toBe(0);
    expect(stripe.requests.length).toBe(asked);
    // Stripe down: a recent attempt waits for the next run; so do those past their week, up to two
    // weeks old (two weeks to the millisecond included); one older is no longer asked and stays
    // pending (only the provider's answer closes an attempt).
    const down = await aged(1);
    const pastItsWeek = await aged(8);
    const twoWeeks = await aged(14);
    const pastTwoWeeks = await aged(15);
    stripe.failNext = 40;
    const failed = (id: string) => expect.objectContaining({ donationId: id, provider: 'stripe', error: 'Stripe is down' });
    const whileDown = await logged(async () => expect(await recheckPending(deps, now)).toBe(0));
    expect(withMsg(whileDown, 'pending donation re-check failed')).toEqual([failed(down.id), failed(twoWeeks.id), failed(pastItsWeek.id)]);
    expect(withMsg(whileDown, CLOSED)).toEqual([]);
    expect((await findById(t.db, down.id))?.status).toBe('pending');
    expect((await findById(t.db, pastItsWeek.id))?.status).toBe('pending');
    expect((await findById(t.db, twoWeeks.id))?.status).toBe('pending');
    expect((await findById(t.db, pastTwoWeeks.id))?.status).toBe('pending');
  });

  it('names the gift as the donor sees it at Stripe and CoinGate, with its way back', async () => {
    const card = await startCardDonation(deps, { amountCents: 1545, monthly: false, lang: 'fr', gift: { feeEurCents: 45 } });
    expect(card.donation.frequency).toBe('once');
    const sent = () => decodeURIComponent(stripe.requests.at(-1)!.body);
    expect(sent()).toContain('line_items[0][price_data][product_data][name]=Don à la Fondation THV');
    expect(sent()).toContain('line_items[1][price_data][product_data][name]=Frais de paiement couverts');
    expect(sent()).toContain(`cancel_url=https://dons.example.org/payment/cancel?d=${card.donation.id}`);
    await startCardDonation(deps, { amountCents: 1500, monthly: true, lang: 'fr', priceId: 'price_20' });
    expect(sent()).toContain('line_items[0][price_data][product_data][name]=Don mensuel à la Fondation THV');
    expect(sent()).not.toContain('price_20');
    const crypto = await startCryptoDonation(deps, { amountCents: 1545, lang: 'fr' });
    expect(crypto.donation.frequency).toBe('once');
    expect(coingate.orders.get(crypto.donation.provider_ref)).toMatchObject({
      title: 'Don à la Fondation THV',
      description: 'Don en crypto-monnaie à la Fondation THV',
      success_url: `https://dons.example.org/payment/success?d=${crypto.donation.id}`,
      cancel_url: `https://dons.example.org/payment/cancel?d=${crypto.donation.id}`,
    });
    const order = coingate.orders.get(crypto.donation.provider_ref);
    expect(await handleCoinGateCallback(deps, new URLSearchParams({ id: crypto.donation.provider_ref, token: `${order.token}x` }))).toEqual({ status: 400, message: 'unknown order or bad token' });
  });

  it('keeps the campaign chosen on the form when a provider names another, and says so in the log', async () => {
    const warnings: string[] = [];
    const restoreLog = setLogSink((level, line) => void (level === 'warn' ? warnings.push(line) : undefined));
    try {
      const designated = (await startCardDonation(deps, { amountCents: 1800, monthly: false, lang: 'fr', gift: { campaignId: 'camp-form' } })).donation;
      const paid = { status: 'succeeded' as const, amountMinor: 1800, currency: 'EUR' };
      await settle(deps, 'stripe', { ref: designated.provider_ref, ...paid, designation: 'camp-autre' });
      expect(await findById(t.db, designated.id)).toMatchObject({ status: 'succeeded', campaign_id: 'camp-form' });
      expect(warnings.map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({ msg: 'payment designation does not match its attempt', donationId: designated.id, provider: 'stripe', expected: 'camp-form', got: 'camp-autre' }),
      ]);
      warnings.length = 0;
      // The same campaign, or none on either side (null or empty), is no mismatch.
      for (const [campaignId, designation] of [
        ['camp-form', 'camp-form'],
        [null, ''],
        [null, null],
        [null, undefined],
      ] as const) {
        const d = (await startCardDonation(deps, { amountCents: 1800, monthly: false, lang: 'fr', gift: { campaignId } })).donation;
        await settle(deps, 'stripe', { ref: d.provider_ref, ...paid, designation });
      }
      const plain = (await startCardDonation(deps, { amountCents: 1800, monthly: false, lang: 'fr' })).donation;
      await settle(deps, 'stripe', { ref: plain.provider_ref, ...paid, designation: 'camp-autre' });
      expect(warnings.map((l) => JSON.parse(l).msg)).toEqual(['payment designation does not match its attempt']);
      warnings.length = 0;
      await settle(deps, 'stripe', { ref: (await startCardDonation(deps, { amountCents: 1800, monthly: false, lang: 'fr' })).donation.provider_ref, ...paid, amountMinor: 18 });
      expect(warnings.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ msg: 'payment does not match its attempt', expected: '1800 EUR', got: '18 EUR' })]);
    } finally {
      setLogSink(restoreLog);
    }
  });
});
