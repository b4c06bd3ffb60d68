import { parseBracketForm, type FakeRequest } from './http';

/**
 * Subscriptions a foundation's Stripe account already runs when it moves in (ADR 037), started
 * on another site: `existing()` puts one there with its customer, and `GET /v1/subscriptions`
 * lists them as Stripe does — a list object (`has_more`, `data`), newest first, `limit` (1 to 100,
 * 10 by default), `starting_after`, `status` (not canceled by default), `expand[]=data.customer`;
 * `GET /v1/subscriptions/:id?expand[]=customer` reads one. Since API version 2025-03-31.basil the
 * billing period is the item's (`items.data[0].current_period_end`), no longer the subscription's.
 */
export interface FakeExisting {
  customers: Map<string, any>;
  /** A subscription started elsewhere, active, with its customer; its id. */
  existing(s: { amount: number; email: string | null; name?: string; locale?: string; currency?: string; interval?: string; metadata?: Record<string, string> }): string;
}

export const EXISTING_KNOWN_PARAMETERS: Record<string, readonly string[]> = {
  'GET /v1/subscriptions': ['expand[]', 'limit', 'starting_after', 'status'],
  'GET /v1/subscriptions/:id': ['expand[]'],
};

export function fakeExisting(s: { subscriptions: Map<string, any>; next(): number }): FakeExisting & { route(req: FakeRequest, unknown: (endpoint: string) => string | undefined): { status?: number; json: unknown } | undefined } {
  const customers = new Map<string, any>();
  const now = () => Math.floor(Date.now() / 1000);
  const existing: FakeExisting['existing'] = (o) => {
    const n = s.next();
    const customer = { id: `cus_old${n}`, object: 'customer', email: o.email, name: o.name ?? null, preferred_locales: o.locale ? [o.locale] : [], address: null, metadata: {} };
    customers.set(customer.id, customer);
    const start = now() - 86_400 * 200;
    const id = `sub_old${n}`;
    const price = { id: `price_old${n}`, object: 'price', currency: o.currency ?? 'eur', unit_amount: o.amount, product: `prod_old${n}`, recurring: { interval: o.interval ?? 'month', interval_count: 1 }, type: 'recurring' };
    s.subscriptions.set(id, {
      id,
      object: 'subscription',
      status: 'active',
      customer: customer.id,
      currency: price.currency,
      created: start + n,
      start_date: start,
      pause_collection: null,
      cancel_at_period_end: false,
      canceled_at: null,
      metadata: o.metadata ?? {},
      items: { object: 'list', data: [{ id: `si_old${n}`, object: 'subscription_item', quantity: 1, price, current_period_start: now() - 86_400 * 10, current_period_end: now() + 86_400 * 20 }], has_more: false },
    });
    return id;
  };
  const withCustomer = (sub: any, expand: boolean) => (expand && typeof sub.customer === 'string' && customers.has(sub.customer) ? { ...sub, customer: customers.get(sub.customer) } : sub);
  const stripeError = (status: number, message: string) => ({ status, json: { error: { type: 'invalid_request_error', message } } });

  function route(req: FakeRequest, unknown: (endpoint: string) => string | undefined) {
    if (req.method !== 'GET') return undefined;
    const one = /^\/v1\/subscriptions\/(\w+)$/.exec(req.path);
    if (req.path !== '/v1/subscriptions' && !one) return undefined;
    const bad = unknown(one ? 'GET /v1/subscriptions/:id' : 'GET /v1/subscriptions');
    if (bad) return { status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: bad, message: `Received unknown parameter: ${bad}` } } };
    const p = parseBracketForm(req.query.toString());
    const expand = Object.values<string>(p.expand ?? {});
    if (one) {
      const sub = s.subscriptions.get(one[1]);
      return sub ? { json: withCustomer(sub, expand.includes('customer')) } : stripeError(404, `No such subscription: '${one[1]}'`);
    }
    const limit = p.limit === undefined ? 10 : Number(p.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return stripeError(400, 'Invalid integer: limit must be between 1 and 100');
    const status = p.status ?? 'all_but_canceled';
    const all = [...s.subscriptions.values()].filter((x) => (status === 'all' ? true : status === 'all_but_canceled' ? x.status !== 'canceled' : x.status === status)).sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    let from = 0;
    if (p.starting_after) {
      from = all.findIndex((x) => x.id === p.starting_after) + 1;
      if (from === 0) return stripeError(400, `No such subscription: '${p.starting_after}'`);
    }
    const data = all.slice(from, from + limit).map((x) => withCustomer(x, expand.includes('data.customer')));
    return { json: { object: 'list', url: '/v1/subscriptions', has_more: from + limit < all.length, data } };
  }
  return { customers, existing, route };
}
