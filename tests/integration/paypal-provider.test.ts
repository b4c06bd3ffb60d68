import { describe, expect, it } from 'vitest';
import { captureOrder, createOrder, payPalBase, settledOrder, verifyWebhookSignature } from '~/domain/donations/providers/paypal.server';
import { ProviderError } from '~/domain/donations/providers/types';
import type { FakeResponse } from '../fakes/http';
import { scriptedApi } from '../support/scripted-api';

/** PayPal's REST API as our client speaks it (mutation testing, ADR 011). */
describe('the PayPal client', () => {
  let token: FakeResponse = { json: { access_token: 'A21AA-token' } };
  /** Answers by method and path, where a test needs more than one at once. */
  const byRequest: Record<string, FakeResponse> = {};
  const api = scriptedApi((req) => (req.path === '/v1/oauth2/token' ? token : byRequest[`${req.method} ${req.path}`]));
  const config = () => ({ base: api.url, clientId: 'cid', clientSecret: 'csecret' });
  const calls = () => api.requests.filter((r) => r.path !== '/v1/oauth2/token');
  const last = () => calls()[calls().length - 1];

  it('talks to the live or sandbox API, or to the configured one without its trailing slash', () => {
    expect(payPalBase('live')).toBe('https://api-m.paypal.com');
    expect(payPalBase('sandbox')).toBe('https://api-m.sandbox.paypal.com');
    expect(payPalBase('live', 'http://127.0.0.1:9/pp/')).toBe('http://127.0.0.1:9/pp');
  });

  it('gets an OAuth token with the client credentials, then creates an EUR order with a request id', async () => {
    api.next = { status: 201, json: { id: '5O190127TN364715T', status: 'CREATED' } };
    expect((await createOrder(config(), { donationId: 'd-9', amountCents: 2050, description: 'Don' })).id).toBe('5O190127TN364715T');
    const auth = api.requests.filter((r) => r.path === '/v1/oauth2/token').at(-1)!;
    expect([auth.method, auth.body, auth.headers.authorization, auth.headers['content-type'], auth.headers.accept]).toEqual(['POST', 'grant_type=client_credentials', `Basic ${Buffer.from('cid:csecret').toString('base64')}`, 'application/x-www-form-urlencoded', 'application/json']);
    const req = last();
    expect([req.method, req.path]).toEqual(['POST', '/v2/checkout/orders']);
    expect(req.headers).toMatchObject({ authorization: 'Bearer A21AA-token', 'content-type': 'application/json', accept: 'application/json', 'paypal-request-id': 'create-d-9' });
    expect(JSON.parse(req.body)).toEqual({ intent: 'CAPTURE', purchase_units: [{ reference_id: 'd-9', custom_id: 'd-9', description: 'Don', amount: { currency_code: 'EUR', value: '20.50' } }] });
  });

  it('asks for PayPal’s own approval page with return and cancel addresses, and answers its payer-action link (the redirect flow)', async () => {
    api.next = { status: 200, json: { id: '7X1', status: 'PAYER_ACTION_REQUIRED', links: [{ rel: 'self', href: 'https://api-m.paypal.com/v2/checkout/orders/7X1' }, { rel: 'payer-action', href: 'https://www.paypal.com/checkoutnow?token=7X1' }] } };
    const redirect = { returnUrl: 'https://dons.example.org/devenir-membre/merci?d=d-1', cancelUrl: 'https://dons.example.org/devenir-membre/annule?d=d-1', locale: 'fr-FR' };
    expect(await createOrder(config(), { donationId: 'd-1', amountCents: 3000, description: 'Cotisation', redirect })).toEqual({ id: '7X1', approveUrl: 'https://www.paypal.com/checkoutnow?token=7X1' });
    expect(JSON.parse(last().body).payment_source).toEqual({
      paypal: { experience_context: { return_url: redirect.returnUrl, cancel_url: redirect.cancelUrl, locale: 'fr-FR', user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' } },
    });
    // An answer without a usable link gives none (the provider then refuses to send the payer anywhere).
    for (const links of [undefined, [], [{ rel: 'self', href: 'https://x' }], [{ rel: 'payer-action', href: 'javascript:alert(1)' }]]) {
      api.next = { status: 200, json: { id: '7X2', links } };
      expect((await createOrder(config(), { donationId: 'd-2', amountCents: 3000, description: 'Cotisation', redirect })).approveUrl).toBeNull();
    }
  });

  it('refuses a token answer without a token, and an order answer without a usable id', async () => {
    token = { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    await expect(settledOrder(config(), 'ABC')).rejects.toThrow(new ProviderError('paypal', 'Client Authentication failed'));
    token = { json: { token_type: 'Bearer' } };
    await expect(settledOrder(config(), 'ABC')).rejects.toThrow(new ProviderError('paypal', 'jeton OAuth absent'));
    token = { json: { access_token: 'A21AA-token' } };
    for (const json of [{}, { id: 42 }, { id: 'bad id!' }, { id: '!ABC' }, { id: '' }]) {
      api.next = { status: 201, json };
      await expect(createOrder(config(), { donationId: 'd', amountCents: 100, description: 'x' })).rejects.toThrow(new ProviderError('paypal', 'commande sans identifiant'));
    }
  });

  it('refuses an order id that is not PayPal-shaped, without asking', async () => {
    const before = calls().length;
    for (const id of ['', 'a/b', 'A B', 'x'.repeat(65), '../capture']) {
      await expect(captureOrder(config(), id), id).rejects.toThrow(new ProviderError('paypal', 'identifiant de commande invalide'));
      await expect(settledOrder(config(), id), id).rejects.toThrow(new ProviderError('paypal', 'identifiant de commande invalide'));
    }
    expect(calls().length).toBe(before);
  });

  it('captures once per order (request id) and reads the capture', async () => {
    api.next = { status: 201, json: { id: 'ORD1', status: 'COMPLETED', payer: { name: { given_name: 'Ana', surname: 'García' }, email_address: 'ana@example.org' }, purchase_units: [{ custom_id: 'd-1', payments: { captures: [{ status: 'COMPLETED', amount: { currency_code: 'EUR', value: '20.00' } }] } }] } };
    expect(await captureOrder(config(), 'ORD1')).toEqual({ ref: 'ORD1', customId: 'd-1', status: 'succeeded', amountMinor: 2000, currency: 'EUR', donorName: 'Ana García', donorEmail: 'ana@example.org' });
    expect([last().method, last().path, last().headers['paypal-request-id'], last().body]).toEqual(['POST', '/v2/checkout/orders/ORD1/capture', 'capture-ORD1', '{}']);
  });

  it('reads an order: voided, not yet captured, custom_id on the capture, odd fields', async () => {
    api.next = { json: { id: 'ORD2', status: 'VOIDED', purchase_units: [{}] } };
    expect(await settledOrder(config(), 'ORD2')).toEqual({ ref: 'ORD2', customId: null, status: 'cancelled', amountMinor: null, currency: null, donorName: null, donorEmail: null });
    expect([last().method, last().path, last().headers['paypal-request-id']]).toEqual(['GET', '/v2/checkout/orders/ORD2', undefined]);
    api.next = { json: { id: 'ORD3', status: 'SAVED', payer: { name: { given_name: 'Ana' }, email_address: 7 }, purchase_units: [{ payments: { captures: [{ custom_id: 'd-3', status: 'COMPLETED', amount: { currency_code: 'EUR', value: '1.00' } }] } }] } };
    expect(await settledOrder(config(), 'ORD3')).toEqual({ ref: 'ORD3', customId: 'd-3', status: null, amountMinor: 100, currency: 'EUR', donorName: 'Ana', donorEmail: null });
    api.next = { json: { status: 'COMPLETED', purchase_units: [{ custom_id: 5, payments: { captures: [{ status: 'DECLINED', amount: { currency_code: 978, value: '1.00' } }] } }] } };
    expect(await settledOrder(config(), 'ORD4')).toEqual({ ref: '', customId: null, status: 'failed', amountMinor: null, currency: null, donorName: null, donorEmail: null });
  });

  it('captures an order its payer approved before answering, and only reads any other', async () => {
    byRequest['GET /v2/checkout/orders/ORD5'] = { json: { id: 'ORD5', status: 'APPROVED', purchase_units: [{ custom_id: 'd-5' }] } };
    byRequest['POST /v2/checkout/orders/ORD5/capture'] = { status: 201, json: { id: 'ORD5', status: 'COMPLETED', purchase_units: [{ custom_id: 'd-5', payments: { captures: [{ status: 'COMPLETED', amount: { currency_code: 'EUR', value: '5.00' } }] } }] } };
    expect(await settledOrder(config(), 'ORD5')).toEqual({ ref: 'ORD5', customId: 'd-5', status: 'succeeded', amountMinor: 500, currency: 'EUR', donorName: null, donorEmail: null });
    expect(calls().slice(-2).map((r) => [r.method, r.path, r.headers['paypal-request-id']])).toEqual([
      ['GET', '/v2/checkout/orders/ORD5', undefined],
      ['POST', '/v2/checkout/orders/ORD5/capture', 'capture-ORD5'],
    ]);
    // Created but not approved yet: read, never captured.
    api.next = { json: { id: 'ORD6', status: 'CREATED', purchase_units: [{}] } };
    const before = calls().length;
    expect((await settledOrder(config(), 'ORD6')).status).toBeNull();
    expect(calls().length).toBe(before + 1);
  });

  it('reads an order that lacks units, payments, captures, amounts or payer', async () => {
    const nothing = { customId: null, status: null, amountMinor: null, currency: null, donorName: null, donorEmail: null };
    for (const json of [{ id: 'O1', status: 'COMPLETED' }, { id: 'O1', status: 'COMPLETED', purchase_units: [], payer: {} }, { id: 'O1', status: 'COMPLETED', purchase_units: [{}], payer: { name: {} } }, { id: 'O1', status: 'COMPLETED', purchase_units: [{ payments: {} }] }, { id: 'O1', status: 'COMPLETED', purchase_units: [{ payments: { captures: [] } }] }, { id: 'O1', status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ status: 'PENDING' }] } }] }]) {
      api.next = { json };
      expect(await settledOrder(config(), 'O1'), JSON.stringify(json)).toEqual({ ref: 'O1', ...nothing });
    }
  });

  it('asks PayPal to verify a webhook with the event exactly as received, and not without its headers', async () => {
    const raw = '{ "id": "WH-1",\n  "resource": { "amount": 12.00 } }';
    const headers = new Headers({ 'PAYPAL-AUTH-ALGO': 'SHA256withRSA', 'PAYPAL-CERT-URL': 'https://api.paypal.com/cert', 'PAYPAL-TRANSMISSION-ID': 'tid', 'PAYPAL-TRANSMISSION-SIG': 'sig', 'PAYPAL-TRANSMISSION-TIME': '2026-01-01T00:00:00Z' });
    api.next = { json: { verification_status: 'SUCCESS' } };
    expect(await verifyWebhookSignature(config(), 'WH-ID', headers, raw)).toBe(true);
    expect(last().path).toBe('/v1/notifications/verify-webhook-signature');
    expect(last().body).toBe(`{"auth_algo":"SHA256withRSA","cert_url":"https://api.paypal.com/cert","transmission_id":"tid","transmission_sig":"sig","transmission_time":"2026-01-01T00:00:00Z","webhook_id":"WH-ID","webhook_event":${raw}}`);
    api.next = { json: { verification_status: 'FAILURE' } };
    expect(await verifyWebhookSignature(config(), 'WH-ID', headers, raw)).toBe(false);
    const before = calls().length;
    for (const missing of ['PAYPAL-TRANSMISSION-SIG', 'PAYPAL-TRANSMISSION-ID']) {
      const h = new Headers(headers);
      h.delete(missing);
      expect(await verifyWebhookSignature(config(), 'WH-ID', h, raw)).toBe(false);
    }
    expect(calls().length).toBe(before);
  });
});
