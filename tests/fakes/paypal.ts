import { createHmac, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
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
  /** The next captures are declined by the donor's bank: 422 INSTRUMENT_DECLINED, as PayPal answers. */
  declineCaptures: number;
  approve(id: string): void;
  /** A captured order refunded in full from PayPal's dashboard: its refund (with `seller_payable_breakdown`) in the order's payments. */
  refund(orderId: string): any;
  /** Headers PayPal would send with a webhook for this body. */
  signedHeaders(body: string): Record<string, string>;
}

const SIGNING_KEY = 'fake-paypal-signing-key';

/** PayPal's fee on a European payment, as the fake charges it: 2.9 % + 0.35 € (rounded to the cent), in minor units. */
export const fakePayPalFee = (minor: number) => Math.round(minor * 0.029) + 35;
const money = (minor: number, currency_code: string) => ({ currency_code, value: (minor / 100).toFixed(2) });
/** A completed capture's `seller_receivable_breakdown` (ADR 033), as PayPal answers it. */
function receivable(amount: { currency_code: string; value: string }) {
  const gross = Math.round(Number(amount.value) * 100);
  const fee = fakePayPalFee(gross);
  return { gross_amount: money(gross, amount.currency_code), paypal_fee: money(fee, amount.currency_code), net_amount: money(gross - fee, amount.currency_code) };
}

export async function startFakePayPal(opts: { port: number; clientId: string; clientSecret: string; webhookId: string }): Promise<FakePayPal> {
  const orders = new Map<string, any>();
  const tokens = new Set<string>();
  let seq = 0;
  // PayPal signs `transmission_id|transmission_time|webhook_id|crc32(raw body)`: the bytes as sent,
  // so a body re-serialised by the receiver no longer matches.
  const sig = (id: string, time: string, webhookId: string, rawBody: string) => createHmac('sha256', SIGNING_KEY).update(`${id}|${time}|${webhookId}|${crc32(Buffer.from(rawBody))}`).digest('base64');
  const state = { captureOverride: null as FakePayPal['captureOverride'], declineCaptures: 0 };
  const fake = await startFake(opts.port, async (req) => {
    if (req.method === 'GET' && req.path === '/sdk/js') {
      if (req.query.get('client-id') !== opts.clientId) return { status: 400, text: 'throw new Error("bad client-id")', type: 'application/javascript' };
      return { text: sdk(fakeUrl()), type: 'application/javascript' };
    }
    // PayPal's own approval page (the redirect flow): "Payer" approves the order and sends the payer to
    // the order's return_url with token and PayerID, "Annuler" to its cancel_url with the token.
    if (req.path === '/checkoutnow') {
      const o = orders.get(req.query.get('token') ?? '');
      const back = o?.payment_source?.paypal?.experience_context;
      if (!o || !back) return { status: 404, html: '<p>Unknown order</p>' };
      const to = (url: string, q: string) => `${url}${url.includes('?') ? '&' : '?'}${q}`;
      if (req.method === 'POST') {
        if (new URLSearchParams(req.body).get('choice') === 'cancel') return { redirect: to(back.cancel_url, `token=${o.id}`) };
        o.status = 'APPROVED';
        return { redirect: to(back.return_url, `token=${o.id}&PayerID=PAYER1`) };
      }
      const value = o.purchase_units[0].amount.value;
      return {
        html: `<!doctype html><html lang="en"><title>Fake PayPal</title><main><h1>Fake PayPal</h1><p id="amount">${value} EUR</p><p id="locale">${back.locale}</p><form method="post"><button name="choice" value="pay">Pay with PayPal</button><button name="choice" value="cancel">Cancel and return</button></form></main></html>`,
      };
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
      const redirectFlow = Boolean(body.payment_source?.paypal?.experience_context);
      const status = redirectFlow ? 'PAYER_ACTION_REQUIRED' : 'CREATED';
      const o = { id, intent: body.intent, status, purchase_units: body.purchase_units, payment_source: body.payment_source, create_time: new Date().toISOString() };
      orders.set(id, o);
      // As PayPal answers: `payer-action` when the order names its return pages, `approve` otherwise.
      return { status: redirectFlow ? 200 : 201, json: { id, status, links: [{ href: `${fakeUrl()}/checkoutnow?token=${id}`, rel: redirectFlow ? 'payer-action' : 'approve', method: 'GET' }] } };
    }
    const cap = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(req.path);
    if (req.method === 'POST' && cap) {
      const o = orders.get(cap[1]);
      if (!o) return { status: 404, json: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' } };
      if (o.status === 'COMPLETED') return { status: 422, json: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] } };
      if (o.status !== 'APPROVED') return { status: 422, json: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }], message: 'The requested action could not be performed.' } };
      if (state.declineCaptures > 0) {
        state.declineCaptures -= 1;
        return {
          status: 422,
          json: {
            name: 'UNPROCESSABLE_ENTITY',
            details: [{ issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was either declined by the processor or bank, or it can\'t be used for this payment.' }],
            message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
            debug_id: 'f8c1d2e3a4b5c',
          },
        };
      }
      const unit = o.purchase_units[0];
      const ov = state.captureOverride ?? {};
      o.status = 'COMPLETED';
      o.payer = { name: { given_name: 'Ana', surname: 'García' }, email_address: 'ana@example.org', payer_id: 'PAYER1' };
      const amount = { currency_code: ov.currency_code ?? unit.amount.currency_code, value: ov.value ?? unit.amount.value };
      const status = ov.status ?? 'COMPLETED';
      o.purchase_units = [{ ...unit, payments: { captures: [{ id: `CAP${seq}`, status, custom_id: unit.custom_id, amount, ...(status === 'COMPLETED' ? { seller_receivable_breakdown: receivable(amount) } : {}), create_time: new Date().toISOString() }] } }];
      return { status: 201, json: o };
    }
    const capture = /^\/v2\/payments\/captures\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && capture) {
      const found = [...orders.values()].flatMap((o) => o.purchase_units?.[0]?.payments?.captures ?? []).find((c: any) => c.id === capture[1]);
      return found ? { json: found } : { status: 404, json: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' } };
    }
    const get = /^\/v2\/checkout\/orders\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && get) {
      const o = orders.get(get[1]);
      return o ? { json: o } : { status: 404, json: { name: 'RESOURCE_NOT_FOUND' } };
    }
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') {
      const b = JSON.parse(req.body);
      // The event exactly as the caller sent it inside the request (its last member).
      const at = req.body.indexOf('"webhook_event":');
      const rawEvent = at < 0 ? '' : req.body.slice(at + '"webhook_event":'.length, req.body.lastIndexOf('}'));
      const ok = b.webhook_id === opts.webhookId && b.transmission_sig === sig(b.transmission_id, b.transmission_time, b.webhook_id, rawEvent);
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
    get declineCaptures() {
      return state.declineCaptures;
    },
    set declineCaptures(n) {
      state.declineCaptures = n;
    },
    approve: (id) => {
      orders.get(id).status = 'APPROVED';
    },
    refund(orderId: string) {
      const payments = orders.get(orderId)?.purchase_units?.[0]?.payments;
      const cap = payments?.captures?.[0];
      if (!cap) throw new Error(`no capture for ${orderId}`);
      cap.status = 'REFUNDED';
      const gross = Math.round(Number(cap.amount.value) * 100);
      const r = { id: `REF${++seq}`, status: 'COMPLETED', amount: cap.amount, create_time: new Date().toISOString(), seller_payable_breakdown: { gross_amount: cap.amount, paypal_fee: money(0, cap.amount.currency_code), net_amount: money(gross, cap.amount.currency_code), total_refunded_amount: cap.amount } };
      payments.refunds = [...(payments.refunds ?? []), r];
      return structuredClone(r);
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
        'PAYPAL-TRANSMISSION-SIG': sig(id, time, opts.webhookId, body),
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
