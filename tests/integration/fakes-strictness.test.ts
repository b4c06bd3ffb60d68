import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutSession, stripeClient } from '~/domain/donations/providers/stripe.server';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';

/** The Stripe fake is as strict as Stripe: unknown parameters refused, Idempotency-Key honoured. */
describe('the Stripe fake', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: 'whsec_x', webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
  });
  afterAll(async () => {
    await stripe?.close();
  });
  const client = () => stripeClient('sk_test_strict', stripe.url);
  const base = { mode: 'payment' as const, success_url: 'https://x/s', cancel_url: 'https://x/c', line_items: [{ price: 'price_20', quantity: 1 }] };

  it('accepts what our checkout sends', async () => {
    const input = { donationId: 'd-strict-1', amountCents: 1500, monthly: true, productName: 'Don mensuel', successUrl: 'https://x/s', cancelUrl: 'https://x/c', locale: 'fr' as const };
    const session = await createCheckoutSession(client(), input);
    expect(stripe.sessions.get(session.id)).toMatchObject({ mode: 'subscription', amount_total: 1500, client_reference_id: 'd-strict-1' });
  });

  it('refuses a parameter Stripe does not know, naming it', async () => {
    const params = { ...base, donation_amount: 20 } as unknown as Parameters<ReturnType<typeof client>['checkout']['sessions']['create']>[0];
    await expect(client().checkout.sessions.create(params)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'donation_amount', message: 'Received unknown parameter: donation_amount' });
    const nested = { ...base, line_items: [{ price: 'price_20', quantity: 1, colour: 'red' }] } as unknown as Parameters<ReturnType<typeof client>['checkout']['sessions']['create']>[0];
    await expect(client().checkout.sessions.create(nested)).rejects.toMatchObject({ param: 'line_items[0][colour]' });
  });

  it('refuses an unknown parameter in a query too', async () => {
    const params = { payment: { type: 'payment_intent', payment_intent: 'pi_1' }, colour: 'red' } as unknown as Parameters<ReturnType<typeof client>['invoicePayments']['list']>[0];
    await expect(client().invoicePayments.list(params)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });
    await expect(client().invoices.retrieve('in_1', { colour: 'red' } as never)).rejects.toMatchObject({ param: 'colour' });
    // A SEPA debit's payment and mandate (ADR 029): what we send is known, anything else refused.
    await expect(client().paymentIntents.retrieve('pi_none', { expand: ['latest_charge', 'payment_method'] })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(client().paymentIntents.retrieve('pi_none', { colour: 'red' } as never)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });
    await expect(client().mandates.retrieve('mandate_none')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(client().mandates.retrieve('mandate_none', { colour: 'red' } as never)).rejects.toMatchObject({ param: 'colour' });
  });

  it('answers a repeated Idempotency-Key with the first session, and refuses it with other parameters', async () => {
    const first = await client().checkout.sessions.create(base, { idempotencyKey: 'donation-same' });
    const again = await client().checkout.sessions.create(base, { idempotencyKey: 'donation-same' });
    expect(again.id).toBe(first.id);
    expect([...stripe.sessions.values()].filter((s) => s.id === first.id)).toHaveLength(1);
    await expect(client().checkout.sessions.create({ ...base, locale: 'en' }, { idempotencyKey: 'donation-same' })).rejects.toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
    const other = await client().checkout.sessions.create(base, { idempotencyKey: 'donation-other' });
    expect(other.id).not.toBe(first.id);
  });
});
