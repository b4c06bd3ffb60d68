import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheckoutSession, describeAmount, invoiceOfCharge, retrieveSession, sessionPayment, stripeClient, verifyWebhook, type CheckoutInput } from '~/domain/donations/providers/stripe.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { parseBracketForm } from '../fakes/http';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { scriptedApi } from '../support/scripted-api';

/** Stripe Checkout as our client speaks it: what a session asks Stripe for, and what we read back (mutation testing, ADR 011). */
describe('the Stripe client', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: 'whsec_provider', webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
  });
  afterAll(async () => {
    await stripe?.close();
  });
  beforeEach(() => {
    stripe.failNext = 0;
  });
  let seq = 0;
  const input = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
    donationId: `d-stripe-${++seq}`,
    amountCents: 2500,
    monthly: false,
    productName: 'Don',
    successUrl: 'https://dons.example.org/ok',
    cancelUrl: 'https://dons.example.org/ko',
    locale: 'es',
    ...over,
  });
  /** The parameters our last call sent to Stripe. */
  const sent = () => parseBracketForm(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body);

  it('asks for a one-off gift of an amount typed by the donor, in euros, as a donation', async () => {
    const i = input();
    const session = await createCheckoutSession(stripeClient('sk_test_p', stripe.url), i);
    expect(session.url).toBe(`${stripe.url}/pay/${session.id}`);
    expect(sent()).toEqual({
      client_reference_id: i.donationId,
      metadata: { donation_id: i.donationId },
      success_url: 'https://dons.example.org/ok',
      cancel_url: 'https://dons.example.org/ko',
      locale: 'es',
      mode: 'payment',
      submit_type: 'donate',
      line_items: { 0: { quantity: '1', price_data: { currency: 'eur', unit_amount: '2500', product_data: { name: 'Don' } } } },
    });
  });

  it('asks for a preset by its price, plus the fees the donor covers on a line of their own', async () => {
    const i = input({ priceId: 'price_20', amountCents: 2060, feeCents: 60, campaignId: 'camp-1', paymentMethodTypes: ['card', 'sepa_debit'] });
    const session = await createCheckoutSession(stripeClient('sk_test_p', stripe.url), i);
    expect(stripe.sessions.get(session.id)).toMatchObject({ amount_total: 2060, line_items_count: 2 });
    expect(sent()).toMatchObject({
      metadata: { donation_id: i.donationId, campaign_id: 'camp-1' },
      allowed_payment_method_types: { 0: 'card', 1: 'sepa_debit' },
      line_items: { 0: { price: 'price_20', quantity: '1' }, 1: { quantity: '1', price_data: { currency: 'eur', unit_amount: '60', product_data: { name: 'Frais' } } } },
    });
    await createCheckoutSession(stripeClient('sk_test_p', stripe.url), input({ amountCents: 1030, feeCents: 30, feeName: 'Frais de traitement', paymentMethodTypes: [] }));
    expect(sent().allowed_payment_method_types).toBeUndefined();
    expect(sent().line_items).toEqual({
      0: { quantity: '1', price_data: { currency: 'eur', unit_amount: '1000', product_data: { name: 'Don' } } },
      1: { quantity: '1', price_data: { currency: 'eur', unit_amount: '30', product_data: { name: 'Frais de traitement' } } },
    });
  });

  it('asks for a monthly gift as a subscription, fees monthly too, with the designation on the subscription', async () => {
    const i = input({ monthly: true, amountCents: 1545, feeCents: 45, campaignId: 'camp-2', priceId: 'price_20' });
    await createCheckoutSession(stripeClient('sk_test_p', stripe.url), i);
    const p = sent();
    expect(p).toMatchObject({ mode: 'subscription', subscription_data: { metadata: { donation_id: i.donationId, campaign_id: 'camp-2' } } });
    expect(p.submit_type).toBeUndefined();
    expect(p.line_items).toEqual({
      0: { quantity: '1', price_data: { currency: 'eur', unit_amount: '1500', recurring: { interval: 'month' }, product_data: { name: 'Don' } } },
      1: { quantity: '1', price_data: { currency: 'eur', unit_amount: '45', recurring: { interval: 'month' }, product_data: { name: 'Frais' } } },
    });
  });

  it('asks once per donation (the idempotency key), retries a failed call once and no more, and sends no telemetry', async () => {
    const client = stripeClient('sk_test_p', stripe.url);
    const i = input();
    const first = await createCheckoutSession(client, i);
    expect((await createCheckoutSession(client, i)).id).toBe(first.id);
    expect(stripe.requests.at(-1)!.headers['idempotency-key']).toBe(`donation-${i.donationId}`);
    expect(stripe.requests.some((r) => r.headers['x-stripe-client-telemetry'])).toBe(false);
    stripe.failNext = 1;
    await expect(createCheckoutSession(client, input())).resolves.toMatchObject({ url: expect.stringContaining('/pay/') });
    stripe.failNext = 2;
    await expect(createCheckoutSession(client, input())).rejects.toThrow(new ProviderError('stripe', 'Stripe is down'));
  });

  it('reaches the API at STRIPE_API_BASE, its port defaulting to the scheme\'s, and gives up after 15 seconds', () => {
    const field = (s: Stripe, key: string) => (s as unknown as { getApiField(k: string): unknown }).getApiField(key);
    const plain = stripeClient('sk_test_p', 'http://stripe.internal');
    expect([field(plain, 'protocol'), field(plain, 'host'), field(plain, 'port')]).toEqual(['http', 'stripe.internal', 80]);
    const secure = stripeClient('sk_test_p', 'https://stripe.internal');
    expect([field(secure, 'protocol'), field(secure, 'port')]).toEqual(['https', 443]);
    const other = stripeClient('sk_test_p', 'https://stripe.internal:8443');
    expect(field(other, 'port')).toBe('8443');
    expect(field(stripeClient('sk_test_p'), 'host')).toBe('api.stripe.com');
    expect(field(plain, 'timeout')).toBe(15_000);
    expect(plain.getTelemetryEnabled()).toBe(false);
  });

  it('reads a session back: its status, amount, donor, and the payment or subscription behind it', async () => {
    const session = await createCheckoutSession(stripeClient('sk_test_p', stripe.url), input({ campaignId: 'camp-3' }));
    stripe.complete(session.id, { customer_details: { name: 'Awa', email: null }, customer_email: 'awa@example.org' });
    expect(await retrieveSession(stripeClient('sk_test_p', stripe.url), session.id)).toEqual({
      ref: session.id,
      status: 'succeeded',
      amountMinor: 2500,
      currency: 'EUR',
      donorName: 'Awa',
      donorEmail: 'awa@example.org',
      secondaryRef: `pi_${session.id}`,
      designation: 'camp-3',
    });
    await expect(retrieveSession(stripeClient('sk_test_p', stripe.url), 'cs_inconnue')).rejects.toThrow(new ProviderError('stripe', 'No such checkout.session'));
  });

  it('takes the subscription, or else the payment intent, whether Stripe sends its id or the object', () => {
    const base = { id: 'cs_1', status: 'open', payment_status: 'unpaid' } as Stripe.Checkout.Session;
    const read = (over: object) => sessionPayment({ ...base, ...over } as Stripe.Checkout.Session);
    expect(read({ subscription: 'sub_1', payment_intent: 'pi_1' }).secondaryRef).toBe('sub_1');
    expect(read({ subscription: { id: 'sub_2' }, payment_intent: 'pi_2' }).secondaryRef).toBe('sub_2');
    expect(read({ subscription: null, payment_intent: 'pi_3' }).secondaryRef).toBe('pi_3');
    expect(read({ subscription: null, payment_intent: { id: 'pi_4' } }).secondaryRef).toBe('pi_4');
    expect(read({})).toEqual({ ref: 'cs_1', status: null, amountMinor: null, currency: null, donorName: null, donorEmail: null, secondaryRef: null, designation: null });
    expect(read({ customer_details: { email: 'a@example.org' }, customer_email: 'b@example.org' }).donorEmail).toBe('a@example.org');
  });

  it('finds the invoice a charge paid: by its PaymentIntent, or by the invoice an older API version names; none for a one-off payment', async () => {
    const client = stripeClient('sk_test_p', stripe.url);
    const monthly = await createCheckoutSession(client, input({ monthly: true, amountCents: 1700 }));
    stripe.complete(monthly.id);
    const first = stripe.sessions.get(monthly.id).invoice;
    const renewal = stripe.renew(stripe.sessions.get(monthly.id).subscription).invoice;
    const { charge } = stripe.refund({ invoice: renewal.id });
    expect(await invoiceOfCharge(client, charge)).toMatchObject({ id: renewal.id, billing_reason: 'subscription_cycle', amount_paid: 1700 });
    const firstCharge = stripe.refund({ invoice: first }, { legacyInvoiceField: true }).charge;
    expect(firstCharge.invoice).toBe(first);
    const before = stripe.requests.length;
    expect(await invoiceOfCharge(client, { ...firstCharge, payment_intent: null })).toMatchObject({ id: first, billing_reason: 'subscription_create' });
    expect(stripe.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/invoices/${first}`]);
    expect(await invoiceOfCharge(client, { payment_intent: { id: charge.payment_intent } as Stripe.PaymentIntent, invoice: null })).toMatchObject({ id: renewal.id });

    const oneOff = await createCheckoutSession(client, input());
    stripe.complete(oneOff.id);
    expect(await invoiceOfCharge(client, stripe.refund({ paymentIntent: `pi_${oneOff.id}` }).charge)).toBeUndefined();
    const asked = stripe.requests.length;
    expect(await invoiceOfCharge(client, { payment_intent: null })).toBeUndefined();
    expect(stripe.requests).toHaveLength(asked);
    await expect(invoiceOfCharge(client, { payment_intent: null, invoice: 'in_inconnue' })).rejects.toThrow(new ProviderError('stripe', "No such invoice: 'in_inconnue'"));
  });

  it('verifies a webhook against its signature', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', data: { object: {} } });
    expect(verifyWebhook(payload, stripe.sign(payload), 'whsec_provider').id).toBe('evt_1');
    expect(() => verifyWebhook(payload, null, 'whsec_provider')).toThrow('missing Stripe-Signature');
    expect(() => verifyWebhook(payload, stripe.sign(payload, 'whsec_other'), 'whsec_provider')).toThrow();
    expect(() => verifyWebhook(`${payload} `, stripe.sign(payload), 'whsec_provider')).toThrow();
  });

  it('writes amounts for the activity log in euros', () => {
    expect(describeAmount(123456)).toBe('1234.56 EUR');
    expect(describeAmount(5)).toBe('0.05 EUR');
  });
});

describe('the Stripe client facing odd answers', () => {
  const api = scriptedApi();
  const client = () => stripeClient('sk_test_odd', api.url);
  const input: CheckoutInput = { donationId: 'd-odd', amountCents: 500, monthly: false, productName: 'Don', successUrl: 'https://x/ok', cancelUrl: 'https://x/ko', locale: 'fr' };

  it.each([
    ['no id', { object: 'checkout.session', url: 'https://checkout.stripe.com/c/1' }],
    ['no address', { object: 'checkout.session', id: 'cs_1', url: null }],
  ])('refuses a session with %s', async (_what, json) => {
    api.next = { json };
    await expect(createCheckoutSession(client(), input)).rejects.toThrow(new ProviderError('stripe', 'session sans adresse de paiement'));
  });

  it('finds no invoice in an invoice payment that names a deleted one, or only its id', async () => {
    for (const invoice of [{ id: 'in_1', object: 'invoice', deleted: true }, 'in_2']) {
      api.next = { json: { object: 'list', has_more: false, url: '/v1/invoice_payments', data: [{ id: 'inpay_1', object: 'invoice_payment', invoice, payment: { type: 'payment_intent', payment_intent: 'pi_1' } }] } };
      expect(await invoiceOfCharge(client(), { payment_intent: 'pi_1' })).toBeUndefined();
    }
  });

  it('names Stripe when its API refuses', async () => {
    api.next = { status: 400, json: { error: { type: 'invalid_request_error', message: 'Invalid locale' } } };
    const error = await createCheckoutSession(client(), input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'stripe', message: 'Invalid locale' });
  });
});
