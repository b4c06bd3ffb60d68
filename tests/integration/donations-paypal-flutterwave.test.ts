import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findById, findByRef } from '~/domain/donations/ledger.server';
import { getPaymentSettings, availableMethods } from '~/domain/donations/providers/settings.server';
import { ProviderError } from '~/domain/donations/providers/types';
import {
  cancelAttempt,
  capturePayPalDonation,
  confirmFlutterwave,
  handleFlutterwaveWebhook,
  handlePayPalWebhook,
  recheckPending,
  startMobileDonation,
  startPayPalDonation,
  type DonationDeps,
} from '../support/payment-entry';
import { parseEnv } from '~/lib/env.server';
import { setLogSink } from '~/lib/log.server';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { enablePayPalAndFlutterwave, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';

const APP_SECRET = 'another-test-secret-'.padEnd(48, 'q');
const PP = PAYPAL_TEST;
const FLW = FLUTTERWAVE_TEST;

describeEachDialect('PayPal and Flutterwave donations on %s', (dialect) => {
  let t: TestDb;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let deps: DonationDeps;
  // Port 0: the fakes take free ports (other test runs may be using any fixed one).
  const port = 0;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    pp = await startFakePayPal({ port, ...PP });
    flw = await startFakeFlutterwave({ port, secretKey: FLW.secretKey });
    await enablePayPalAndFlutterwave(t.db, APP_SECRET);
    deps = { db: t.db, settings: await getPaymentSettings(t.db, APP_SECRET), env: parseEnv({ PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url }), publicUrl: 'https://dons.example.org' };
  });
  afterAll(async () => {
    await pp?.close();
    await flw?.close();
    await t?.destroy();
  });

  it('offers PayPal and mobile money once their secrets are set', () => {
    expect(availableMethods(deps.settings)).toMatchObject({ paypal: true, mobileMoney: true, card: false, crypto: false });
  });

  it('creates a PayPal order in EUR, and succeeds only on a COMPLETED capture of that amount', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 2000, lang: 'es' });
    expect(pp.orders.get(orderId)).toMatchObject({ intent: 'CAPTURE', purchase_units: [{ custom_id: donation.id, amount: { currency_code: 'EUR', value: '20.00' } }] });
    // Not approved by the donor (a forged onApprove): PayPal says so, nothing is captured, nothing counts.
    expect(await capturePayPalDonation(deps, orderId)).toMatchObject({ id: donation.id, status: 'pending' });
    expect(pp.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(0);
    pp.approve(orderId);
    const done = await capturePayPalDonation(deps, orderId);
    expect(done).toMatchObject({ status: 'succeeded', donor_email: 'ana@example.org', donor_name: 'Ana García' });
    expect((await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'ana@example.org').execute()).map((m) => m.subject)).toEqual(['Recibo de su donativo a la Fundación THV']);
  });

  it('fails a PayPal capture with another amount or currency', async () => {
    for (const override of [{ value: '2.00' }, { currency_code: 'USD' }, { status: 'DECLINED' }]) {
      const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 2000, lang: 'fr' });
      pp.approve(orderId);
      pp.captureOverride = override;
      await capturePayPalDonation(deps, orderId);
      pp.captureOverride = null;
      expect((await findById(t.db, donation.id))?.status).toBe('failed');
    }
  });

  it('leaves a capture PayPal holds (PENDING) pending, and confirms it when PayPal completes it', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 2100, lang: 'fr' });
    pp.approve(orderId);
    pp.captureOverride = { status: 'PENDING' };
    expect(await capturePayPalDonation(deps, orderId)).toMatchObject({ status: 'pending' });
    pp.captureOverride = null;
    // PayPal completes it later (a review, an eCheck): its event, re-fetched, confirms the gift.
    pp.orders.get(orderId).purchase_units[0].payments.captures[0].status = 'COMPLETED';
    const body = JSON.stringify({ id: 'WH-PENDING-DONE', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { id: 'CAP', supplementary_data: { related_ids: { order_id: orderId } } } });
    expect(await handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body)))).toEqual({ status: 200, message: 'ok' });
    expect(await findById(t.db, donation.id)).toMatchObject({ status: 'succeeded', amount_minor: 2100 });
  });

  it('counts a PayPal webhook only when PayPal verifies its signature', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 1200, lang: 'fr' });
    pp.approve(orderId);
    // Captured at PayPal, but our capture answer was lost: the webhook brings the news.
    pp.orders.get(orderId).status = 'COMPLETED';
    pp.orders.get(orderId).purchase_units[0].payments = { captures: [{ id: 'CAPX', status: 'COMPLETED', amount: { currency_code: 'EUR', value: '12.00' } }] };
    const body = JSON.stringify({ id: 'WH-EVT-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { id: 'CAPX', status: 'COMPLETED', amount: { currency_code: 'EUR', value: '12.00' }, supplementary_data: { related_ids: { order_id: orderId } } } });
    const headers = new Headers(pp.signedHeaders(body));
    expect((await handlePayPalWebhook(deps, body.replace('12.00', '1200.00'), headers)).status).toBe(400);
    expect((await handlePayPalWebhook(deps, body, new Headers({ 'Content-Type': 'application/json' }))).status).toBe(400);
    expect((await findById(t.db, donation.id))?.status).toBe('pending');
    for (let i = 0; i < 10; i++) expect((await handlePayPalWebhook(deps, body, headers)).status).toBe(200);
    expect((await findById(t.db, donation.id))?.status).toBe('succeeded');
  });

  it('converts EUR to XOF at 655.957 and verifies the Flutterwave transaction before success', async () => {
    const r = await startMobileDonation(deps, { eurCents: 2000, name: 'Awa Diallo', email: 'awa@example.org', phone: '+221770000000', lang: 'fr' });
    expect(r).toMatchObject({ amountMinor: 13119, currency: 'XOF' });
    expect(await findById(t.db, r.donation.id)).toMatchObject({ amount_minor: 13119, currency: 'XOF', eur_cents: 2000, status: 'pending' });
    const pay = await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: 13119, currency: 'XOF', customer: { name: 'Awa Diallo', email: 'awa@example.org' } }) });
    const { id } = (await pay.json()) as { id: string };
    expect(await confirmFlutterwave(deps, r.txRef, id)).toMatchObject({ status: 'succeeded' });
  });

  it('ignores a Flutterwave transaction for another amount, currency or reference: the gift stays pending, then settles with its own', async () => {
    for (const override of [{ amount: 100 }, { currency: 'XAF' }]) {
      const r = await startMobileDonation(deps, { eurCents: 2000, name: 'A', email: 'a@example.org', phone: '+221770000001', lang: 'fr' });
      flw.override = override;
      const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: 13119, currency: 'XOF' }) })).json()) as { id: string };
      flw.override = null;
      expect((await confirmFlutterwave(deps, r.txRef, id))?.status).toBe('pending');
    }
    // Our own transaction, declined by the provider: that one settles the gift as failed.
    const declined = await startMobileDonation(deps, { eurCents: 2000, name: 'A', email: 'a@example.org', phone: '+221770000001', lang: 'fr' });
    flw.override = { status: 'failed' };
    const { id: declinedId } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: declined.txRef, amount: 13119, currency: 'XOF' }) })).json()) as { id: string };
    flw.override = null;
    expect((await confirmFlutterwave(deps, declined.txRef, declinedId))?.status).toBe('failed');
    // Someone else's real transaction offered for our reference: ours stays pending…
    const mine = await startMobileDonation(deps, { eurCents: 500, name: 'A', email: 'a@example.org', phone: '+221770000001', lang: 'fr' });
    const other = await startMobileDonation(deps, { eurCents: 500, name: 'B', email: 'b@example.org', phone: '+221770000002', lang: 'fr' });
    const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: other.txRef, amount: other.amountMinor, currency: 'XOF' }) })).json()) as { id: string };
    expect((await confirmFlutterwave(deps, mine.txRef, id))?.status).toBe('pending');
    expect((await findById(t.db, other.donation.id))?.status).toBe('pending');
    // …and the donor's own payment still counts afterwards.
    const { id: mineId } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: mine.txRef, amount: mine.amountMinor, currency: 'XOF' }) })).json()) as { id: string };
    expect((await confirmFlutterwave(deps, mine.txRef, mineId))?.status).toBe('succeeded');
  });

  it('requires the verif-hash on the Flutterwave webhook, then re-verifies; replays change nothing', async () => {
    const r = await startMobileDonation(deps, { eurCents: 1000, name: 'Awa', email: 'awa2@example.org', phone: '+221770000003', lang: 'en' });
    const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: r.amountMinor, currency: 'XOF' }) })).json()) as { id: string };
    const body = JSON.stringify({ event: 'charge.completed', data: { id: Number(id), tx_ref: r.txRef, status: 'successful', amount: r.amountMinor, currency: 'XOF' } });
    expect((await handleFlutterwaveWebhook(deps, body, 'wrong')).status).toBe(400);
    expect((await handleFlutterwaveWebhook(deps, body, null)).status).toBe(400);
    expect((await findByRef(t.db, 'flutterwave', r.txRef))?.status).toBe('pending');
    for (let i = 0; i < 10; i++) expect((await handleFlutterwaveWebhook(deps, body, FLW.hash)).status).toBe(200);
    expect((await findByRef(t.db, 'flutterwave', r.txRef))?.status).toBe('succeeded');
    expect((await t.db.selectFrom('mail_outbox').select('id').where('to', '=', 'awa2@example.org').execute()).length).toBe(1);
  });

  it('answers each PayPal webhook it cannot use, and reads the order of a checkout-order event', async () => {
    const send = (event: object | string, d = deps) => {
      const body = typeof event === 'string' ? event : JSON.stringify(event);
      return handlePayPalWebhook(d, body, new Headers(pp.signedHeaders(body)));
    };
    const noWebhook = { ...deps, settings: { ...deps.settings, paypal: { ...deps.settings.paypal, webhookId: '' } } };
    expect(await send({ id: 'WH-0' }, noWebhook)).toEqual({ status: 400, message: 'webhook id not configured' });
    expect(await send('{pas du json')).toEqual({ status: 400, message: 'invalid body' });
    expect(await send({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { id: 'CAP' } })).toEqual({ status: 200, message: 'ignored' });
    expect(await send({ id: 'WH-1b', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { supplementary_data: {} } })).toEqual({ status: 200, message: 'ignored' });
    expect(await send({ id: 'WH-1c', event_type: 'BILLING.PLAN.CREATED' })).toEqual({ status: 200, message: 'ignored' });
    expect(await send({ id: 'WH-1d', event_type: 'CHECKOUT.ORDER.COMPLETED', resource_type: 'checkout-order' })).toEqual({ status: 200, message: 'ignored' });
    expect(await send('null')).toEqual({ status: 200, message: 'ignored' });
    expect(await send({ id: 'WH-2', event_type: 'CHECKOUT.ORDER.APPROVED', resource_type: 'capture', resource: { id: 'ORDER-1' } })).toEqual({ status: 200, message: 'ignored' });
    expect(await send({ id: 'WH-3', event_type: 'CHECKOUT.ORDER.COMPLETED', resource_type: 'checkout-order', resource: { id: 'ORDER-INCONNU' } })).toEqual({ status: 200, message: 'unknown order' });
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 1700, lang: 'fr' });
    pp.approve(orderId);
    pp.orders.get(orderId).status = 'COMPLETED';
    pp.orders.get(orderId).purchase_units[0].payments = { captures: [{ id: 'CAPY', status: 'COMPLETED', amount: { currency_code: 'EUR', value: '17.00' } }] };
    expect(await send({ id: 'WH-4', event_type: 'CHECKOUT.ORDER.COMPLETED', resource_type: 'checkout-order', resource: { id: orderId } })).toEqual({ status: 200, message: 'ok' });
    expect((await findById(t.db, donation.id))?.status).toBe('succeeded');
    // Settled: the buttons' capture does not ask PayPal again.
    const asked = pp.requests.length;
    expect((await capturePayPalDonation(deps, orderId))?.status).toBe('succeeded');
    expect(pp.requests.length).toBe(asked);
    expect(await capturePayPalDonation(deps, 'ORDER-INCONNU')).toBeUndefined();
    // The cancel page leaves a PayPal gift to PayPal (#12): still pending, captured when the donor approves it after all.
    const late = await startPayPalDonation(deps, { amountCents: 1750, lang: 'fr' });
    expect(await cancelAttempt(deps, late.donation.id)).toBe('unconfirmed');
    expect((await findById(t.db, late.donation.id))?.status).toBe('pending');
    pp.approve(late.orderId);
    expect((await capturePayPalDonation(deps, late.orderId))?.status).toBe('succeeded');
  });

  it('takes the money of a PayPal gift its donor approved and never came back from: at the re-check, or on PayPal’s APPROVED event', async () => {
    // Approved on PayPal, then the page closed before the buttons asked us to capture.
    const left = await startPayPalDonation(deps, { amountCents: 2300, lang: 'fr' });
    pp.approve(left.orderId);
    const notApproved = await startPayPalDonation(deps, { amountCents: 2400, lang: 'fr' });
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await findById(t.db, left.donation.id)).toMatchObject({ status: 'succeeded', amount_minor: 2300 });
    expect(pp.orders.get(left.orderId).status).toBe('COMPLETED');
    // One never approved is only asked about: still pending, nothing captured.
    expect((await findById(t.db, notApproved.donation.id))?.status).toBe('pending');
    expect(pp.requests.some((r) => r.path === `/v2/checkout/orders/${notApproved.orderId}/capture`)).toBe(false);

    // PayPal says the payer approved: the order is captured then and there, once, however often PayPal says it.
    const approved = await startPayPalDonation(deps, { amountCents: 2500, lang: 'fr' });
    pp.approve(approved.orderId);
    const body = JSON.stringify({ id: 'WH-APPROVED', event_type: 'CHECKOUT.ORDER.APPROVED', resource_type: 'checkout-order', resource: { id: approved.orderId } });
    for (let i = 0; i < 3; i++) expect(await handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body)))).toEqual({ status: 200, message: 'ok' });
    expect(await findById(t.db, approved.donation.id)).toMatchObject({ status: 'succeeded', amount_minor: 2500 });
    expect(pp.requests.filter((r) => r.path === `/v2/checkout/orders/${approved.orderId}/capture`)).toHaveLength(1);
  });

  it('refuses to call PayPal or Flutterwave without their credentials', async () => {
    const without = (secrets: object, paypal = deps.settings.paypal) => ({ ...deps, settings: { ...deps.settings, paypal, secrets: { ...deps.settings.secrets, ...secrets } } });
    for (const d of [without({ 'paypal.clientSecret': '' }), without({}, { ...deps.settings.paypal, clientId: '' })]) {
      const error = await startPayPalDonation(d, { amountCents: 800, lang: 'fr' }).catch((e: unknown) => e);
      expect(error).toEqual(new ProviderError('paypal', 'configuration incomplète'));
    }
    const failed = await t.db.selectFrom('donations').select(['status', 'error']).where('provider', '=', 'paypal').where('amount_minor', '=', 800).execute();
    expect(failed).toEqual([
      { status: 'failed', error: 'configuration incomplète' },
      { status: 'failed', error: 'configuration incomplète' },
    ]);
    const r = await startMobileDonation(deps, { eurCents: 700, name: 'Awa', email: 'awa3@example.org', phone: '+221770000004', lang: 'fr' });
    await expect(confirmFlutterwave(without({ 'mobileMoney.secretKey': '' }), r.txRef, '1')).rejects.toThrow(new ProviderError('flutterwave', 'configuration incomplète'));
    expect(await confirmFlutterwave(deps, 'thv-inconnu', '1')).toBeUndefined();
    // A transaction that is not exactly ours is ignored, and the log says what was expected and what came.
    const warnings: string[] = [];
    const restoreLog = setLogSink((level, line) => void (level === 'warn' ? warnings.push(line) : undefined));
    try {
      const { id: small } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: 1, currency: 'XOF' }) })).json()) as { id: string };
      expect((await confirmFlutterwave(deps, r.txRef, small))?.status).toBe('pending');
    } finally {
      setLogSink(restoreLog);
    }
    expect(warnings.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ msg: 'suspicious flutterwave transaction ignored', donationId: r.donation.id, expected: `${r.txRef} ${r.amountMinor} XOF`, got: `${r.txRef} 1 XOF` }),
    ]);
    // The API base may be given with a trailing slash.
    const slash = { ...deps, env: { ...deps.env, FLUTTERWAVE_API_BASE: `${flw.url}/` } };
    const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: r.amountMinor, currency: 'XOF' }) })).json()) as { id: string };
    expect((await confirmFlutterwave(slash, r.txRef, id))?.status).toBe('succeeded');
  });

  it('takes a mobile money gift in CFA francs from euros, in another currency as typed, and never for nothing', async () => {
    const inCurrency = (currency: 'XAF' | 'GHS') => ({ ...deps, settings: { ...deps.settings, mobileMoney: { ...deps.settings.mobileMoney, currency } } });
    const who = { name: 'Kofi', email: 'kofi@example.org', phone: '+233200000000', lang: 'en' as const };
    expect(await startMobileDonation(inCurrency('XAF'), { ...who, eurCents: 1000 })).toMatchObject({ amountMinor: 6560, currency: 'XAF', donation: { eur_cents: 1000 } });
    expect(await startMobileDonation(inCurrency('GHS'), { ...who, eurCents: 1000, localMinor: 15000 })).toMatchObject({ amountMinor: 15000, currency: 'GHS', donation: { eur_cents: null } });
    for (const r of [{ eurCents: 0 }, {}]) await expect(startMobileDonation(deps, { ...who, ...r })).rejects.toThrow(new ProviderError('flutterwave', 'montant invalide'));
    await expect(startMobileDonation(inCurrency('GHS'), { ...who, eurCents: 1000 })).rejects.toThrow(new ProviderError('flutterwave', 'montant invalide'));
  });

  it('answers each Flutterwave webhook it cannot use, and reads the older txRef spelling', async () => {
    const send = (body: string) => handleFlutterwaveWebhook(deps, body, FLW.hash);
    expect(await handleFlutterwaveWebhook(deps, '{}', 'faux')).toEqual({ status: 400, message: 'invalid verif-hash' });
    expect(await send('{pas du json')).toEqual({ status: 400, message: 'invalid body' });
    expect(await send('null')).toEqual({ status: 200, message: 'ignored' });
    expect(await send(JSON.stringify({ event: 'charge.completed', data: { tx_ref: 'thv-x' } }))).toEqual({ status: 200, message: 'ignored' });
    expect(await send(JSON.stringify({ event: 'charge.completed', data: { id: 5 } }))).toEqual({ status: 200, message: 'ignored' });
    expect(await send(JSON.stringify({ event: 'charge.completed' }))).toEqual({ status: 200, message: 'ignored' });
    const r = await startMobileDonation(deps, { eurCents: 600, name: 'Awa', email: 'awa4@example.org', phone: '+221770000005', lang: 'fr' });
    const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: r.txRef, amount: r.amountMinor, currency: 'XOF' }) })).json()) as { id: string };
    expect(await send(JSON.stringify({ event: 'charge.completed', data: { id: Number(id), txRef: r.txRef } }))).toEqual({ status: 200, message: 'ok' });
    expect((await findByRef(t.db, 'flutterwave', r.txRef))?.status).toBe('succeeded');
  });
});
