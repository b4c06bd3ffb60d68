import { createHmac, randomUUID } from 'node:crypto';
import { startFake, type FakeServer } from './http';

/**
 * A fake PayPal REST API (OAuth2 token, Orders v2 create/capture/get, verify-webhook-signature)
 * and a fake JavaScript SDK at /sdk/js whose button creates the order through the page's
 * createOrder, "approves" it here, then calls onApprove, as the real buttons do.
 */
export interface FakePayPal extends FakeServer {
  orders: Map<string, any>;
  /** Changes what the next capture answers (status, amount, currency). */
  captureOverride: { status?: string; value?: string; currency_code?: string } | null;
  approve(id: string): void;
  /** Headers PayPal would send with a webhook for this body. */
  signedHeaders(body: string): Record<string, string>;
}

const SIGNING_KEY = 'fake-paypal-signing-key';

export async function startFakePayPal(opts: { port: number; clientId: string; clientSecret: string; webhookId: string }): Promise<FakePayPal> {
  const orders = new Map<string, any>();
  const tokens = new Set<string>();
  let seq = 0;
  const sig = (id: string, time: string, webhookId: string, body: string) => createHmac('sha256', SIGNING_KEY).update(`${id}|${time}|${webhookId}|${body}`).digest('base64');
  const state = { captureOverride: null as FakePayPal['captureOverride'] };
  const fake = await startFake(opts.port, async (req) => {
    if (req.method === 'GET' && req.path === '/sdk/js') {
      if (req.query.get('client-id') !== opts.clientId) return { status: 400, text: 'throw new Error("bad client-id")', type: 'application/javascript' };
      return { text: sdk(fakeUrl()), type: 'application/javascript' };
    }
    const approve = /^\/approve\/(\w+)$/.exec(req.path);
    if (req.method === 'POST' && approve) {
      const o = orders.get(approve[1]);
      if (!o) return { status: 404, json: {} };
      o.status = 'APPROVED';
      return { json: { ok: true } };
    }
    if (req.method === 'POST' && req.path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || req.body !== 'grant_type=client_credentials') return { status: 401, json: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
      const token = `A21AA${randomUUID().replace(/-/g, '')}`;
      tokens.add(token);
      return { json: { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-80W284485P519543T', expires_in: 32400, nonce: 'n' } };
    }
    if (!tokens.has(String(req.headers.authorization).replace(/^Bearer /, ''))) return { status: 401, json: { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' } };
    if (req.method === 'POST' && req.path === '/v2/checkout/orders') {
      const body = JSON.parse(req.body);
      const id = `5O${Date.now()}${++seq}`;
      const o = { id, intent: body.intent, status: 'CREATED', purchase_units: body.purchase_units, create_time: new Date().toISOString() };
      orders.set(id, o);
      return { status: 201, json: { id, status: 'CREATED', links: [{ href: `${fakeUrl()}/checkoutnow?token=${id}`, rel: 'approve', method: 'GET' }] } };
    }
    const cap = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(req.path);
    if (req.method === 'POST' && cap) {
      const o = orders.get(cap[1]);
      if (!o) return { status: 404, json: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' } };
      if (o.status === 'COMPLETED') return { status: 422, json: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] } };
      if (o.status !== 'APPROVED') return { status: 422, json: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }], message: 'The requested action could not be performed.' } };
      const unit = o.purchase_units[0];
      const ov = state.captureOverride ?? {};
      o.status = 'COMPLETED';
      o.payer = { name: { given_name: 'Ana', surname: 'García' }, email_address: 'ana@example.org', payer_id: 'PAYER1' };
      o.purchase_units = [{ ...unit, payments: { captures: [{ id: `CAP${seq}`, status: ov.status ?? 'COMPLETED', custom_id: unit.custom_id, amount: { currency_code: ov.currency_code ?? unit.amount.currency_code, value: ov.value ?? unit.amount.value } }] } }];
      return { status: 201, json: o };
    }
    const get = /^\/v2\/checkout\/orders\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && get) {
      const o = orders.get(get[1]);
      return o ? { json: o } : { status: 404, json: { name: 'RESOURCE_NOT_FOUND' } };
    }
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') {
      const b = JSON.parse(req.body);
      const ok = b.webhook_id === opts.webhookId && b.transmission_sig === sig(b.transmission_id, b.transmission_time, b.webhook_id, JSON.stringify(b.webhook_event));
      return { json: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
    }
    return { status: 404, json: { name: 'NOT_FOUND' } };
  });
  const fakeUrl = () => fake.url;
  return {
    ...fake,
    orders,
    get captureOverride() {
      return state.captureOverride;
    },
    set captureOverride(v) {
      state.captureOverride = v;
    },
    approve: (id) => {
      orders.get(id).status = 'APPROVED';
    },
    signedHeaders(body: string) {
      const id = randomUUID();
      const time = new Date().toISOString();
      return {
        'Content-Type': 'application/json',
        'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
        'PAYPAL-CERT-URL': `${fake.url}/certs/CERT-360caa42`,
        'PAYPAL-TRANSMISSION-ID': id,
        'PAYPAL-TRANSMISSION-TIME': time,
        'PAYPAL-TRANSMISSION-SIG': sig(id, time, opts.webhookId, JSON.stringify(JSON.parse(body))),
      };
    },
  } as FakePayPal;
}

function sdk(origin: string): string {
  return `(() => {
  const origin = ${JSON.stringify(origin)};
  window.paypal = {
    Buttons(opts) {
      return {
        render(container) {
          const el = typeof container === 'string' ? document.querySelector(container) : container;
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = 'PayPal';
          button.className = 'fake-paypal-button';
          el.append(button);
          opts.onInit && opts.onInit({}, { enable: () => { button.disabled = false; }, disable: () => { button.disabled = true; } });
          button.addEventListener('click', async () => {
            try {
              const id = await opts.createOrder({}, {});
              await fetch(origin + '/approve/' + id, { method: 'POST' });
              await opts.onApprove({ orderID: id }, {});
            } catch (e) {
              opts.onError && opts.onError(e);
            }
          });
          return Promise.resolve();
        },
      };
    },
  };
})();`;
}
