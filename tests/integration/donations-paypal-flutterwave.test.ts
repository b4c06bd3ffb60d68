import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findById, findByRef } from '~/domain/donations/ledger.server';
import { getPaymentSettings, availableMethods } from '~/domain/donations/payment-settings.server';
import { ProviderError } from '~/domain/donations/providers/types';
import {
  capturePayPalDonation,
  confirmFlutterwave,
  handleFlutterwaveWebhook,
  handlePayPalWebhook,
  startMobileDonation,
  startPayPalDonation,
  type DonationDeps,
} from '~/domain/donations/service.server';
import { parseEnv } from '~/lib/env.server';
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
    // Not approved by the donor: PayPal answers 422 ORDER_NOT_APPROVED, the capture throws, nothing counts.
    await expect(capturePayPalDonation(deps, orderId)).rejects.toThrow(new ProviderError('paypal', 'The requested action could not be performed.'));
    expect((await findById(t.db, donation.id))?.status).toBe('pending');
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
});
