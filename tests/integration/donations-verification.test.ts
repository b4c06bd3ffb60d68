import { afterAll, beforeAll, expect, it } from 'vitest';
import { findById } from '~/domain/donations/ledger.server';
import { getPaymentSettings } from '~/domain/donations/providers/settings.server';
import { createOrder, isAcceptablePaymentUrl } from '~/domain/donations/providers/coingate.server';
import { ProviderError } from '~/domain/donations/providers/types';
import {
  capturePayPalDonation,
  handleCoinGateCallback,
  handlePayPalWebhook,
  recheckPending,
  startCryptoDonation,
  startMobileDonation,
  startPayPalDonation,
  type DonationDeps,
} from '../support/payment-entry';
import { parseEnv } from '~/lib/env.server';
import { setLogSink } from '~/lib/log.server';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { startFake } from '../fakes/http';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { enablePayPalAndFlutterwave, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';

/**
 * What a provider verifiably says, and only that, decides a gift: the checks that keep another
 * order's news, a foreign custom_id or a declined card from counting, and the re-checks that
 * confirm a gift whose callback was lost (issue #20: each once survived a one-line mutation).
 */
const APP_SECRET = 'verification-secret-'.padEnd(48, 'v');
const CG_TOKEN = 'cg-verification-token';

describeEachDialect('verified donation outcomes on %s', (dialect) => {
  let t: TestDb;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let cg: FakeCoinGate;
  let deps: DonationDeps;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    // Port 0: each fake takes a free port of its own.
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    cg = await startFakeCoinGate({ port: 0, authToken: CG_TOKEN });
    await enablePayPalAndFlutterwave(t.db, APP_SECRET, CG_TOKEN);
    deps = {
      db: t.db,
      settings: await getPaymentSettings(t.db, APP_SECRET),
      env: parseEnv({ PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url, COINGATE_API_BASE: cg.url }),
      publicUrl: 'https://dons.example.org',
    };
  });
  afterAll(async () => {
    await pp?.close();
    await flw?.close();
    await cg?.close();
    await t?.destroy();
  });

  const status = async (id: string) => (await findById(t.db, id))?.status;
  const coinGateCallback = (id: string, fields: Record<string, string> = {}) => handleCoinGateCallback(deps, new URLSearchParams({ id, token: cg.orders.get(id).token, ...fields }));
  /** The order as PayPal holds it once the donor paid (our capture answer lost on the way). */
  const capturedAtPayPal = (orderId: string, value: string) => {
    const o = pp.orders.get(orderId);
    o.status = 'COMPLETED';
    o.purchase_units[0].payments = { captures: [{ id: `CAP-${orderId}`, status: 'COMPLETED', amount: { currency_code: 'EUR', value } }] };
  };
  const payAtFlutterwave = async (body: Record<string, unknown>) => ((await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify(body) })).json()) as { id: string }).id;

  // ——— CoinGate ———

  it('CoinGate: a paid order that belongs to another donation never confirms ours, by callback or re-check', async () => {
    const mine = await startCryptoDonation(deps, { amountCents: 2000, lang: 'fr' });
    const other = await startCryptoDonation(deps, { amountCents: 2000, lang: 'fr' });
    const order = cg.orders.get(mine.donation.provider_ref);
    order.status = 'paid';
    order.order_id = other.donation.id;
    expect(await coinGateCallback(mine.donation.provider_ref)).toEqual({ status: 400, message: 'order does not match' });
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await status(mine.donation.id)).toBe('pending');
    expect(await status(other.donation.id)).toBe('pending');
    // The same order, once it names our donation, counts.
    order.order_id = mine.donation.id;
    expect(await coinGateCallback(mine.donation.provider_ref)).toEqual({ status: 200, message: 'ok' });
    expect(await status(mine.donation.id)).toBe('succeeded');
  });

  it.each([
    ['expired', 'cancelled'],
    ['canceled', 'cancelled'],
    ['invalid', 'failed'],
    ['pending', 'pending'],
    ['confirming', 'pending'],
  ])('CoinGate: an order %s at CoinGate leaves the gift %s', async (atCoinGate, expected) => {
    const { donation } = await startCryptoDonation(deps, { amountCents: 1500, lang: 'en' });
    cg.orders.get(donation.provider_ref).status = atCoinGate;
    // The callback claims "paid"; only the re-fetched order is believed.
    expect((await coinGateCallback(donation.provider_ref, { status: 'paid' })).status).toBe(200);
    expect(await status(donation.id)).toBe(expected);
  });

  it('CoinGate: the re-check confirms a paid order whose callback never came', async () => {
    const { donation } = await startCryptoDonation(deps, { amountCents: 3000, lang: 'fr' });
    cg.orders.get(donation.provider_ref).status = 'paid';
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await status(donation.id)).toBe('succeeded');
  });

  it('CoinGate: the donor is sent to HTTPS only, plain HTTP only from an API on this machine', async () => {
    expect(isAcceptablePaymentUrl('https://api.coingate.com', 'https://pay.coingate.com/invoice/1')).toBe(true);
    expect(isAcceptablePaymentUrl('https://api.coingate.com', 'http://pay.coingate.com/invoice/1')).toBe(false);
    expect(isAcceptablePaymentUrl('https://api-sandbox.coingate.com', 'http://127.0.0.1:9/invoice/1')).toBe(false);
    expect(isAcceptablePaymentUrl('http://127.0.0.1:4000', 'http://127.0.0.1:4000/invoice/1')).toBe(true);
    expect(isAcceptablePaymentUrl('http://127.12.0.1:4000', 'http://127.12.0.1:4000/invoice/1')).toBe(true);
    expect(isAcceptablePaymentUrl('http://localhost:4000', 'http://localhost:4000/invoice/1')).toBe(true);
    expect(isAcceptablePaymentUrl('http://[::1]:4000', 'http://[::1]:4000/invoice/1')).toBe(true);
    expect(isAcceptablePaymentUrl('http://127.0.0.1.example.org', 'http://127.0.0.1.example.org/i')).toBe(false);
    expect(isAcceptablePaymentUrl('http://10.0.0.1:4000', 'http://10.0.0.1:4000/invoice/1')).toBe(false);
    expect(isAcceptablePaymentUrl('not a url', 'http://127.0.0.1/i')).toBe(false);
    for (const bad of ['javascript:alert(1)', 'ftp://127.0.0.1/i', 'https://', 'http:///x', '//evil.example/pay', ' https://pay.coingate.com']) {
      expect(isAcceptablePaymentUrl('http://127.0.0.1:4000', bad), bad).toBe(false);
    }
    // The order call itself refuses what the predicate refuses.
    const liar = await startFake(0, () => ({ json: { id: 77, payment_url: 'javascript:alert(1)' } }));
    try {
      const input = { donationId: 'd1', amountCents: 100, title: 'Don', description: 'Don', callbackUrl: 'https://x/cb', successUrl: 'https://x/s', cancelUrl: 'https://x/c', token: 'tok' };
      await expect(createOrder({ authToken: CG_TOKEN, base: liar.url }, input)).rejects.toThrow(new ProviderError('coingate', 'commande sans adresse de paiement'));
    } finally {
      await liar.close();
    }
  });

  // ——— PayPal ———

  it('PayPal: a capture whose custom_id names another donation does not count', async () => {
    const mine = await startPayPalDonation(deps, { amountCents: 2000, lang: 'fr' });
    pp.approve(mine.orderId);
    pp.orders.get(mine.orderId).purchase_units[0].custom_id = 'another-donation';
    const after = await capturePayPalDonation(deps, mine.orderId);
    expect(after).toMatchObject({ id: mine.donation.id, status: 'pending' });
  });

  it('PayPal: a declined card (422 INSTRUMENT_DECLINED) leaves the gift pending for another try, which can succeed', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 2500, lang: 'fr' });
    pp.approve(orderId);
    pp.declineCaptures = 1;
    const declined = await capturePayPalDonation(deps, orderId).then(
      () => 'returned',
      (e: unknown) => e,
    );
    expect(declined).toBeInstanceOf(ProviderError);
    expect((declined as ProviderError).message).toBe('The requested action could not be performed, semantically incorrect, or failed business validation.');
    expect(await status(donation.id)).toBe('pending');
    expect(await capturePayPalDonation(deps, orderId)).toMatchObject({ status: 'succeeded' });
  });

  const refundEvent = (orderId: string, value: string) =>
    JSON.stringify({ id: `WH-REFUND-${orderId}-${value}`, event_type: 'PAYMENT.CAPTURE.REFUNDED', resource_type: 'refund', resource: { id: `REF-${orderId}`, status: 'COMPLETED', amount: { currency_code: 'EUR', value }, supplementary_data: { related_ids: { order_id: orderId } } } });
  /** What `run` answers, and the warnings written to the log meanwhile. */
  const warningsDuring = async <T>(run: () => Promise<T>): Promise<[T, unknown[]]> => {
    const warnings: string[] = [];
    const restoreLog = setLogSink((level, line) => void (level === 'warn' ? warnings.push(line) : undefined));
    try {
      return [await run(), warnings.map((l) => JSON.parse(l))];
    } finally {
      setLogSink(restoreLog);
    }
  };
  /** A PayPal gift approved by the donor and captured: confirmed. */
  const capturedPayPalGift = async (amountCents: number) => {
    const started = await startPayPalDonation(deps, { amountCents, lang: 'fr' });
    pp.approve(started.orderId);
    expect(await capturePayPalDonation(deps, started.orderId)).toMatchObject({ status: 'succeeded' });
    return started;
  };
  /** The order as PayPal shows it once its capture has been refunded, in full or in part. */
  const refundedAtPayPal = (orderId: string, captureStatus: 'REFUNDED' | 'PARTIALLY_REFUNDED') => {
    pp.orders.get(orderId).purchase_units[0].payments.captures[0].status = captureStatus;
  };

  it('PayPal: a verified refund webhook marks the gift refunded once PayPal shows the capture refunded in full', async () => {
    const { orderId, donation } = await capturedPayPalGift(1000);
    refundedAtPayPal(orderId, 'REFUNDED');
    const body = refundEvent(orderId, '10.00');
    expect(await handlePayPalWebhook(deps, body, new Headers({ 'Content-Type': 'application/json' }))).toEqual({ status: 400, message: 'invalid signature' });
    expect(await status(donation.id)).toBe('succeeded');
    const [answer, warnings] = await warningsDuring(() => handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body))));
    expect(answer).toEqual({ status: 200, message: 'ok' });
    expect(warnings).toEqual([]);
    expect(await status(donation.id)).toBe('refunded');
  });

  it('PayPal: a partial refund leaves the gift succeeded (its receipt stands) and is logged', async () => {
    const { orderId, donation } = await capturedPayPalGift(4000);
    refundedAtPayPal(orderId, 'PARTIALLY_REFUNDED');
    const body = refundEvent(orderId, '15.00');
    const [answer, warnings] = await warningsDuring(() => handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body))));
    expect(answer).toEqual({ status: 200, message: 'ok' });
    expect(await status(donation.id)).toBe('succeeded');
    expect(warnings).toEqual([expect.objectContaining({ msg: 'partial refund left as it is: the gift and its receipt keep their amount', donationId: donation.id, provider: 'paypal' })]);
    // Refunded in full later: then the gift is refunded.
    refundedAtPayPal(orderId, 'REFUNDED');
    const rest = refundEvent(orderId, '25.00');
    expect(await handlePayPalWebhook(deps, rest, new Headers(pp.signedHeaders(rest)))).toEqual({ status: 200, message: 'ok' });
    expect(await status(donation.id)).toBe('refunded');
  });

  it('PayPal: the signature is checked on the body as sent, spacing and all', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 1100, lang: 'fr' });
    pp.approve(orderId);
    capturedAtPayPal(orderId, '11.00');
    // Pretty-printed, with a number PayPal writes as 11.00: re-serialising it would change the bytes.
    const body = JSON.stringify({ id: 'WH-2', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { id: 'C2', amount: { value: 'AMOUNT' }, supplementary_data: { related_ids: { order_id: orderId } } } }, null, 2).replace('"AMOUNT"', '11.00');
    const [answer, warnings] = await warningsDuring(() => handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body))));
    expect(answer).toEqual({ status: 200, message: 'ok' });
    expect(warnings).toEqual([]);
    expect(await status(donation.id)).toBe('succeeded');
  });

  it('PayPal: a webhook for an order whose custom_id names another donation changes nothing', async () => {
    const { orderId, donation } = await startPayPalDonation(deps, { amountCents: 1300, lang: 'fr' });
    pp.approve(orderId);
    capturedAtPayPal(orderId, '13.00');
    pp.orders.get(orderId).purchase_units[0].custom_id = 'someone-else';
    const body = JSON.stringify({ id: 'WH-3', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource_type: 'capture', resource: { id: 'C3', supplementary_data: { related_ids: { order_id: orderId } } } });
    expect(await handlePayPalWebhook(deps, body, new Headers(pp.signedHeaders(body)))).toEqual({ status: 200, message: 'ok' });
    expect(await status(donation.id)).toBe('pending');
  });

  it('PayPal: the re-check confirms a gift captured at PayPal whose answer was lost, and not one of another custom_id', async () => {
    const lost = await startPayPalDonation(deps, { amountCents: 1400, lang: 'fr' });
    const foreign = await startPayPalDonation(deps, { amountCents: 1400, lang: 'fr' });
    capturedAtPayPal(lost.orderId, '14.00');
    capturedAtPayPal(foreign.orderId, '14.00');
    pp.orders.get(foreign.orderId).purchase_units[0].custom_id = 'someone-else';
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await status(lost.donation.id)).toBe('succeeded');
    expect(await status(foreign.donation.id)).toBe('pending');
  });

  // ——— Flutterwave ———

  it('Flutterwave: the re-check confirms a paid gift whose callback never came', async () => {
    const r = await startMobileDonation(deps, { eurCents: 1000, name: 'Awa', email: 'awa@example.org', phone: '+221770000009', lang: 'fr' });
    await payAtFlutterwave({ tx_ref: r.txRef, amount: r.amountMinor, currency: 'XOF' });
    expect(await status(r.donation.id)).toBe('pending');
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await status(r.donation.id)).toBe('succeeded');
  });

  it('Flutterwave: the re-check leaves a gift pending while Flutterwave has no transaction for it', async () => {
    const r = await startMobileDonation(deps, { eurCents: 700, name: 'Awa', email: 'awa@example.org', phone: '+221770000010', lang: 'fr' });
    await recheckPending(deps, new Date(Date.now() + 1000), 0);
    expect(await status(r.donation.id)).toBe('pending');
  });
});
