import { describe, expect, it } from 'vitest';
import type { DonationDeps } from '~/domain/donations/context.server';
import { handleWebhook } from '~/domain/donations/payments.server';
import { callbackForm } from '~/domain/donations/providers/coingate.server';
import { loader } from '~/routes/payments/webhook';

/**
 * The one webhook route (/webhooks/{provider}): the address names the provider, which reads its own
 * body. What a caller sees for an address that names none, and CoinGate's two body shapes.
 */
describe('POST /webhooks/{provider}', () => {
  // Nothing is read of the deps before the provider is found: an address that names none touches nothing.
  const untouched = new Proxy({}, { get: (_, key) => { throw new Error(`deps.${String(key)} read`); } }) as DonationDeps;

  it('answers 404 for an address that names no provider, or one without webhooks (a payment link)', async () => {
    for (const name of ['nope', 'mobile_link', 'constructor', '__proto__', '']) {
      expect(await handleWebhook(untouched, name, '{}', new Headers())).toEqual({ status: 404, message: 'no such webhook' });
    }
  });

  it('answers a GET with 405 and the method it takes', () => {
    const res = loader();
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
  });

  it('reads CoinGate’s callback whether it is posted form-encoded or as JSON', () => {
    expect(Object.fromEntries(callbackForm('id=42&token=abc', 'application/x-www-form-urlencoded'))).toEqual({ id: '42', token: 'abc' });
    expect(Object.fromEntries(callbackForm('id=42&token=abc', null))).toEqual({ id: '42', token: 'abc' });
    expect(Object.fromEntries(callbackForm('{"id":42,"token":"abc","status":null}', 'application/json; charset=utf-8'))).toEqual({ id: '42', token: 'abc', status: '' });
    expect([...callbackForm('{not json', 'application/json')]).toEqual([]);
    expect([...callbackForm('"a string"', 'application/json')]).toEqual([]);
  });
});
