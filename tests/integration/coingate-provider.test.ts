import { describe, expect, it } from 'vitest';
import { coinGateBase, createOrder, getOrder, isAcceptablePaymentUrl } from '~/domain/donations/providers/coingate.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { scriptedApi } from '../support/scripted-api';

/** CoinGate's API as our client speaks it: requests sent, answers refused (mutation testing, ADR 011). */
describe('the CoinGate client', () => {
  const api = scriptedApi();
  const config = () => ({ authToken: 'tok', base: api.url });
  const input = { donationId: 'd-1', amountCents: 1234, title: 'Don', description: 'Un don', callbackUrl: 'https://x/cb', successUrl: 'https://x/ok', cancelUrl: 'https://x/ko', token: 'cb-token' };
  const last = () => api.requests[api.requests.length - 1];

  it('talks to the live or sandbox API, or to the configured one without its trailing slash', () => {
    expect(coinGateBase('live')).toBe('https://api.coingate.com');
    expect(coinGateBase('sandbox')).toBe('https://api-sandbox.coingate.com');
    expect(coinGateBase('live', 'http://127.0.0.1:9/api/')).toBe('http://127.0.0.1:9/api');
    expect(coinGateBase('sandbox', 'http://127.0.0.1:9')).toBe('http://127.0.0.1:9');
  });

  it('creates an order with a form body, its token and headers', async () => {
    api.next = { json: { id: 'abc', payment_url: 'https://pay.coingate.com/invoice/abc' } };
    expect(await createOrder(config(), input)).toEqual({ id: 'abc', paymentUrl: 'https://pay.coingate.com/invoice/abc' });
    const req = last();
    expect([req.method, req.path]).toEqual(['POST', '/v2/orders']);
    expect(req.headers).toMatchObject({ authorization: 'Token tok', 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      order_id: 'd-1',
      price_amount: '12.34',
      price_currency: 'EUR',
      receive_currency: 'EUR',
      title: 'Don',
      description: 'Un don',
      callback_url: 'https://x/cb',
      success_url: 'https://x/ok',
      cancel_url: 'https://x/ko',
      token: 'cb-token',
    });
  });

  it.each([
    ['no id', { payment_url: 'https://pay.coingate.com/i/1' }],
    ['an id that is an object', { id: { n: 1 }, payment_url: 'https://pay.coingate.com/i/1' }],
    ['no payment URL', { id: 7 }],
    ['a payment URL that is not text', { id: 7, payment_url: ['https://pay.coingate.com/i/1'] }],
  ])('refuses an order answer with %s', async (_what, json) => {
    api.next = { json };
    await expect(createOrder(config(), input)).rejects.toThrow(new ProviderError('coingate', 'commande sans adresse de paiement'));
  });

  it('names CoinGate when its API answers an error', async () => {
    api.next = { status: 401, json: { message: 'Unauthorized', reason: 'BadAuthToken' } };
    const e = await createOrder(config(), input).catch((x: unknown) => x);
    expect(e).toMatchObject({ provider: 'coingate', message: 'Unauthorized' });
    const g = await getOrder(config(), '5').catch((x: unknown) => x);
    expect(g).toMatchObject({ provider: 'coingate', message: 'Unauthorized' });
  });

  it('reads an order, and refuses an order id that is not a number without asking', async () => {
    api.next = { json: { id: 5, order_id: 'd-1', status: 'paid', price_amount: '12.34', price_currency: 'eur' } };
    expect(await getOrder(config(), '5')).toEqual({ ref: '5', orderId: 'd-1', status: 'succeeded', amountMinor: 1234, currency: 'EUR' });
    expect([last().method, last().path, last().headers.authorization, last().headers.accept]).toEqual(['GET', '/v2/orders/5', 'Token tok', 'application/json']);
    const before = api.requests.length;
    for (const id of ['5a', 'a5', '', '../5', '1'.repeat(21)]) {
      await expect(getOrder(config(), id), id).rejects.toThrow(new ProviderError('coingate', 'identifiant de commande invalide'));
    }
    expect(api.requests.length).toBe(before);
  });

  it('trusts only well-typed fields of an order', async () => {
    api.next = { json: { id: 6, order_id: 42, status: 'paid', price_amount: '12.34', price_currency: 978 } };
    expect(await getOrder(config(), '6')).toEqual({ ref: '6', orderId: null, status: 'succeeded', amountMinor: null, currency: null });
    api.next = { json: { id: 7, order_id: 'd-1', status: 'paid', price_amount: '12.34', price_currency: 'USD' } };
    expect(await getOrder(config(), '7')).toMatchObject({ amountMinor: null, currency: 'USD' });
  });

  it('never lets a non-HTTP payment address through, whatever the API base', () => {
    expect(isAcceptablePaymentUrl('http://127.0.0.1:4000', 'javascript:alert("http://x")')).toBe(false);
    expect(isAcceptablePaymentUrl('http://127.0.0.1:4000', 'data:text/html,https://x')).toBe(false);
  });
});
