import Stripe from 'stripe';
import { page, parseBracketForm, startFake, type FakeRequest, type FakeServer } from './http';

/**
 * A fake Stripe API (Checkout Sessions) and hosted checkout page. Paying on the page completes the
 * session, sends `checkout.session.completed` signed with the webhook secret to `webhookUrl`, then
 * follows the session's success_url, as Stripe does.
 */
export interface FakeStripe extends FakeServer {
  sessions: Map<string, any>;
  /** Marks a session paid and returns the signed event (without sending it). */
  complete(id: string, overrides?: Record<string, unknown>): { payload: string; header: string };
  sign(payload: string, secret?: string): string;
  send(payload: string, header: string): Promise<Response>;
  failNext: number;
}

/**
 * The parameters Stripe knows, per endpoint: like the real API, the fake refuses any other with
 * 400 `parameter_unknown`, so code that sends a misspelt or invented parameter fails here too.
 * Keys are paths with `[]` for an array index; extend this table when the code sends a new one.
 */
export const STRIPE_KNOWN_PARAMETERS: Record<string, readonly string[]> = {
  'POST /v1/checkout/sessions': [
    'cancel_url',
    'client_reference_id',
    'customer_email',
    'line_items[].price',
    'line_items[].price_data.currency',
    'line_items[].price_data.product_data.name',
    'line_items[].price_data.recurring.interval',
    'line_items[].price_data.unit_amount',
    'line_items[].quantity',
    'locale',
    'metadata.*',
    'mode',
    'submit_type',
    'subscription_data.metadata.*',
    'success_url',
  ],
};

/** The first parameter of a form body that `STRIPE_KNOWN_PARAMETERS` does not list for `endpoint`. */
function unknownParameter(endpoint: string, body: string): string | undefined {
  const known = STRIPE_KNOWN_PARAMETERS[endpoint] ?? [];
  for (const key of new URLSearchParams(body).keys()) {
    const path = key.replace(/\[\d+\]/g, '[]').replace(/\[(\w+)\]/g, '.$1');
    const ok = known.some((k) => k === path || (k.endsWith('.*') && path.startsWith(k.slice(0, -1)) && !path.slice(k.length - 1).includes('.')));
    if (!ok) return key;
  }
  return undefined;
}

export async function startFakeStripe(opts: { port: number; webhookSecret: string; webhookUrl: () => string; prices?: Record<string, number> }): Promise<FakeStripe> {
  const sessions = new Map<string, any>();
  /** Idempotency-Key → the request body it was first used with, and the answer given. */
  const idempotent = new Map<string, { body: string; answer: { status?: number; json: unknown } }>();
  let seq = 0;
  const sign = (payload: string, secret = opts.webhookSecret) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const complete = (id: string, overrides: Record<string, unknown> = {}) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`no session ${id}`);
    Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: s.mode === 'payment' ? `pi_${id}` : null, subscription: s.mode === 'subscription' ? `sub_${id}` : null, customer_details: { email: 'donor@example.org', name: 'Awa Diallo' } }, overrides);
    const payload = JSON.stringify({ id: `evt_${++seq}`, object: 'event', type: 'checkout.session.completed', data: { object: s } });
    return { payload, header: sign(payload) };
  };
  const send = (payload: string, header: string) =>
    fetch(opts.webhookUrl(), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body: payload });
  const fake = await startFake(opts.port, async (req) => {
    const pay = /^\/pay\/(\w+)$/.exec(req.path);
    if (pay) {
      const s = sessions.get(pay[1]);
      if (!s) return { status: 404, html: page('Not found', '') };
      if (req.method === 'GET') {
        return { html: page('Fake Stripe Checkout', `<p>Amount: <span id="amount">${(s.amount_total / 100).toFixed(2)} EUR</span> (${s.mode})</p><form method="post"><button>Pay</button></form><p><a href="${s.cancel_url}">Cancel</a></p>`) };
      }
      const { payload, header } = complete(s.id);
      await send(payload, header);
      return { redirect: String(s.success_url).replace('{CHECKOUT_SESSION_ID}', s.id) };
    }
    if (!/^Bearer sk_/.test(String(req.headers.authorization))) return { status: 401, json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    if (fake2.failNext > 0) {
      fake2.failNext -= 1;
      return { status: 500, json: { error: { type: 'api_error', message: 'Stripe is down' } } };
    }
    const key = req.headers['idempotency-key'];
    if (req.method === 'POST' && typeof key === 'string') {
      // Stripe answers a retried key with the first answer, and refuses it with other parameters.
      const seen = idempotent.get(key);
      if (seen && seen.body !== req.body) {
        return { status: 400, json: { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` } } };
      }
      if (seen) return seen.answer;
    }
    const answer = await create(req);
    if (req.method === 'POST' && typeof key === 'string' && (answer.status ?? 200) < 500) idempotent.set(key, { body: req.body, answer });
    return answer;
  });
  const create = async (req: FakeRequest): Promise<{ status?: number; json: unknown }> => {
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const unknown = unknownParameter('POST /v1/checkout/sessions', req.body);
      if (unknown) return { status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: unknown, message: `Received unknown parameter: ${unknown}` } } };
      const p = parseBracketForm(req.body);
      const id = `cs_test_${++seq}${Date.now()}`;
      const item = p.line_items['0'];
      const amount = item.price ? opts.prices?.[item.price] : Number(item.price_data.unit_amount);
      if (amount === undefined) return { status: 400, json: { error: { type: 'invalid_request_error', message: `No such price: '${item.price}'` } } };
      const s = { id, object: 'checkout.session', mode: p.mode, submit_type: p.submit_type ?? null, status: 'open', payment_status: 'unpaid', amount_total: amount, currency: 'eur', client_reference_id: p.client_reference_id, metadata: p.metadata ?? {}, success_url: p.success_url, cancel_url: p.cancel_url, line_items_in: item, url: `${fake.url}/pay/${id}`, customer_details: null, payment_intent: null, subscription: null };
      sessions.set(id, s);
      return { json: s };
    }
    const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const s = sessions.get(m[1]);
      return s ? { json: s } : { status: 404, json: { error: { type: 'invalid_request_error', message: 'No such checkout.session' } } };
    }
    return { status: 404, json: { error: { message: `unknown ${req.method} ${req.path}` } } };
  };
  const fake2: FakeStripe = { ...fake, sessions, complete, sign, send, failNext: 0 };
  return fake2;
}

