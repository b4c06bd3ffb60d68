import { page, startFake, type FakeServer } from './http';

/**
 * A fake CoinGate API v2: POST /v2/orders (form or JSON, `Authorization: Token …`), GET
 * /v2/orders/{id}, and an invoice page where paying marks the order paid, posts the callback
 * (form-encoded, with the order's token) and follows success_url.
 */
export interface FakeCoinGate extends FakeServer {
  orders: Map<string, any>;
  pay(id: string): Promise<Response>;
  callback(id: string, fields?: Record<string, string>): Promise<Response>;
}

export async function startFakeCoinGate(opts: { port: number; authToken: string }): Promise<FakeCoinGate> {
  const orders = new Map<string, any>();
  let seq = 1000;
  const callback = (id: string, fields: Record<string, string> = {}) => {
    const o = orders.get(id);
    const body = new URLSearchParams({ id: String(o.id), order_id: o.order_id, status: o.status, price_amount: o.price_amount, price_currency: o.price_currency, receive_currency: o.receive_currency, token: o.token, ...fields });
    return fetch(o.callback_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
  };
  const pay = (id: string) => {
    orders.get(id).status = 'paid';
    return callback(id);
  };
  const fake = await startFake(opts.port, async (req) => {
    const inv = /^\/invoice\/(\d+)$/.exec(req.path);
    if (inv) {
      const o = orders.get(inv[1]);
      if (!o) return { status: 404, html: page('Not found', '') };
      if (req.method === 'GET') return { html: page('Fake CoinGate invoice', `<p>Amount: ${o.price_amount} ${o.price_currency}</p><form method="post"><button>Pay with crypto</button></form><p><a href="${o.cancel_url}">Cancel</a></p>`) };
      await pay(inv[1]);
      return { redirect: o.success_url };
    }
    if (req.headers.authorization !== `Token ${opts.authToken}`) return { status: 401, json: { message: 'Unauthorized', reason: 'BadAuthToken' } };
    if (req.method === 'POST' && req.path === '/v2/orders') {
      const p = String(req.headers['content-type']).includes('json') ? JSON.parse(req.body) : Object.fromEntries(new URLSearchParams(req.body));
      const id = String(++seq);
      const o = { id: Number(id), status: 'new', order_id: p.order_id, price_amount: p.price_amount, price_currency: p.price_currency, receive_currency: p.receive_currency, title: p.title, description: p.description, callback_url: p.callback_url, success_url: p.success_url, cancel_url: p.cancel_url, token: p.token, payment_url: `${fake.url}/invoice/${id}`, created_at: new Date().toISOString() };
      orders.set(id, o);
      const { token: _t, callback_url: _c, ...shown } = o;
      return { json: shown };
    }
    const m = /^\/v2\/orders\/(\d+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const o = orders.get(m[1]);
      if (!o) return { status: 404, json: { message: 'Order not found', reason: 'OrderNotFound' } };
      const { token: _t, ...shown } = o;
      return { json: shown };
    }
    return { status: 404, json: { message: 'Not found' } };
  });
  return { ...fake, orders, pay, callback };
}
