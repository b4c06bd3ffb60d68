import { describe, expect, it } from 'vitest';
import { FLUTTERWAVE_API, verifyByReference, verifyTransaction } from '~/domain/donations/providers/flutterwave.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { scriptedApi } from '../support/scripted-api';

/** Flutterwave's verify endpoints as our client reads them (mutation testing, ADR 011). */
describe('the Flutterwave client', () => {
  const api = scriptedApi();
  const config = () => ({ secretKey: 'FLWSECK-1', base: api.url });
  const last = () => api.requests[api.requests.length - 1];
  const tx = { id: 9001, tx_ref: 'thv-abc', status: 'successful', amount: 13119, currency: 'xof', customer: { name: 'Awa', email: 'awa@example.org' } };

  it('verifies a transaction by id with the secret key', async () => {
    api.next = { json: { status: 'success', data: tx } };
    expect(await verifyTransaction(config(), '9001')).toEqual({ ref: 'thv-abc', txRef: 'thv-abc', status: 'succeeded', amountMinor: 13119, currency: 'XOF', donorName: 'Awa', donorEmail: 'awa@example.org', secondaryRef: '9001' });
    expect([last().method, last().path, last().headers.authorization, last().headers.accept]).toEqual(['GET', '/v3/transactions/9001/verify', 'Bearer FLWSECK-1', 'application/json']);
  });

  it('refuses a transaction id that is not a number, without asking', async () => {
    const before = api.requests.length;
    for (const id of ['9001a', 'a9001', '', '../1', '1'.repeat(21)]) {
      await expect(verifyTransaction(config(), id), id).rejects.toThrow(new ProviderError('flutterwave', 'identifiant de transaction invalide'));
    }
    expect(api.requests.length).toBe(before);
  });

  it('verifies by our reference, encoded in the query', async () => {
    api.next = { json: { status: 'success', data: { ...tx, tx_ref: 'thv a&b' } } };
    expect(await verifyByReference(config(), 'thv a&b')).toMatchObject({ txRef: 'thv a&b', status: 'succeeded' });
    expect([last().path, last().query.get('tx_ref'), last().headers.authorization, last().headers.accept]).toEqual(['/v3/transactions/verify_by_reference', 'thv a&b', 'Bearer FLWSECK-1', 'application/json']);
  });

  it.each([
    ['an error status', { status: 'error', data: tx }],
    ['no data', { status: 'success', data: null }],
    ['data that is not an object', { status: 'success', data: 'tx' }],
  ])('refuses an answer with %s', async (_what, json) => {
    api.next = { json };
    await expect(verifyTransaction(config(), '1')).rejects.toThrow(new ProviderError('flutterwave', 'réponse illisible'));
  });

  it('names Flutterwave when its API answers an error', async () => {
    api.next = { status: 401, json: { status: 'error', message: 'Invalid authorization key', data: null } };
    await expect(verifyByReference(config(), 'thv-x')).rejects.toThrow(new ProviderError('flutterwave', 'Invalid authorization key'));
    await expect(verifyTransaction(config(), '12')).rejects.toMatchObject({ provider: 'flutterwave', message: 'Invalid authorization key' });
    expect(FLUTTERWAVE_API).toBe('https://api.flutterwave.com');
  });

  it('trusts only well-typed fields', async () => {
    api.next = { json: { status: 'success', data: { status: 'pending', amount: 'beaucoup', currency: 'XOF', tx_ref: 42, customer: { name: 7, email: null } } } };
    expect(await verifyTransaction(config(), '2')).toEqual({ ref: '42', txRef: null, status: null, amountMinor: null, currency: 'XOF', donorName: null, donorEmail: null, secondaryRef: null });
    api.next = { json: { status: 'success', data: { status: 'successful', amount: 5, currency: 952, id: 3 } } };
    expect(await verifyTransaction(config(), '3')).toEqual({ ref: '', txRef: null, status: 'succeeded', amountMinor: null, currency: null, donorName: null, donorEmail: null, secondaryRef: '3' });
    api.next = { json: { status: 'success', data: { status: 'successful', amount: 5, currency: 'JPY', id: 4 } } };
    expect(await verifyTransaction(config(), '4')).toMatchObject({ amountMinor: null, currency: 'JPY' });
  });
});
