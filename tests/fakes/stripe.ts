import Stripe from 'stripe';
import { page, parseBracketForm, startFake, type FakeServer } from './http';

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

export async function startFakeStripe(opts: { port: number; webhookSecret: string; webhookUrl: () => string; prices?: Record<string, number> }): Promise<FakeStripe> {
  const sessions = new Map<string, any>();
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
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const p = parseBracketForm(req.body);
      const id = `cs_test_${++seq}${Date.now()}`;
      const item = p.line_items['0'];
      // amount_total: every line item (a donation, and the fees a donor covers) times its quantity.
      let amount: number | undefined = 0;
      for (const line of Object.values<any>(p.line_items)) {
        const unit = line.price ? opts.prices?.[line.price] : Number(line.price_data.unit_amount);
        if (unit === undefined) return { status: 400, json: { error: { type: 'invalid_request_error', message: `No such price: '${line.price}'` } } };
        amount += unit * Number(line.quantity ?? 1);
      }
      const s = { id, object: 'checkout.session', mode: p.mode, submit_type: p.submit_type ?? null, status: 'open', payment_status: 'unpaid', amount_total: amount, currency: 'eur', client_reference_id: p.client_reference_id, metadata: p.metadata ?? {}, success_url: p.success_url, cancel_url: p.cancel_url, line_items_in: item, line_items_count: Object.keys(p.line_items).length, allowed_payment_method_types: p.allowed_payment_method_types ? Object.values(p.allowed_payment_method_types) : null, url: `${fake.url}/pay/${id}`, customer_details: null, payment_intent: null, subscription: null };
      sessions.set(id, s);
      return { json: s };
    }
    const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const s = sessions.get(m[1]);
      return s ? { json: s } : { status: 404, json: { error: { type: 'invalid_request_error', message: 'No such checkout.session' } } };
    }
    return { status: 404, json: { error: { message: `unknown ${req.method} ${req.path}` } } };
  });
  const fake2: FakeStripe = { ...fake, sessions, complete, sign, send, failNext: 0 };
  return fake2;
}

