import Stripe from 'stripe';
import { page, parseBracketForm, startFake, type FakeRequest, type FakeServer } from './http';
import { DEBIT_KNOWN_PARAMETERS, fakeDebits, type FakeDebits } from './stripe-debits';
import { BALANCE_KNOWN_PARAMETERS, fakeBalance, type FakeBalance } from './stripe-balance';
import { EXISTING_KNOWN_PARAMETERS, fakeExisting, type FakeExisting } from './stripe-existing';

/**
 * A fake Stripe API (Checkout Sessions) and hosted checkout page. Paying on the page completes the session, sends
 * `checkout.session.completed` signed with the webhook secret to `webhookUrl`, then follows the session's success_url, as
 * Stripe does. Payments leave what Stripe keeps of them (a PaymentIntent and its charge; for a subscription, its invoices and
 * invoice payments), so renewals and refunds can be sent in Stripe's own shape; SEPA direct debits: stripe-debits.ts; the
 * balance (fees, refunds', disputes' movements, payouts): stripe-balance.ts.
 */
export interface FakeStripe extends FakeServer, FakeDebits, FakeBalance, FakeExisting {
  sessions: Map<string, any>;
  /** Marks a session paid and returns the signed event (without sending it). */
  complete(id: string, overrides?: Record<string, unknown>): { payload: string; header: string };
  sign(payload: string, secret?: string): string;
  send(payload: string, header: string): Promise<Response>;
  failNext: number;
  // ——— Subscriptions and billing portal (donor space, issue #15) ———
  /** Subscriptions created by completed subscription-mode sessions, by id. */
  subscriptions: Map<string, any>;
  /** Every event the fake produced from an API change (customer.subscription.updated / .deleted), signed. */
  events: { type: string; payload: string; header: string }[];
  /** With `deliverEvents`: each of those events once our server answered it (0: it could not be reached). */
  delivered: { type: string; status: number }[];
  /** A signed event about `object` (an invoice.payment_failed the test wants to send, for instance). */
  event(type: string, object: unknown): { payload: string; header: string };
  /**
   * Test hook: each successful API answer is passed (a copy) through this before it is sent; the first thing other than
   * undefined it returns is sent instead, and the hook cleared (an answer that does not show what was asked, as a test needs).
   */
  reshapeNext: ((json: any, req: FakeRequest) => unknown) | null;
  // ——— Invoices, payments and refunds ———
  /**
   * Invoices of subscriptions, by id, as Stripe makes them: the first by the checkout (`billing_reason: 'subscription_create'`,
   * named by the session's `invoice`), then one per renewal. Like Stripe since API version 2025-03-31.basil, an invoice names no
   * PaymentIntent or charge: its payments are listed by GET /v1/invoice_payments.
   */
  invoices: Map<string, any>;
  /** Charges by the id of their PaymentIntent: the payment of a one-off checkout or of an invoice. */
  charges: Map<string, any>;
  /** A subscription's next instalment paid: its invoice (PaymentIntent and charge behind it) and the signed invoice.paid event. */
  renew(subscriptionId: string): { invoice: any; payload: string; header: string };
  /**
   * A payment refunded in full (from Stripe's dashboard): the charge and the signed charge.refunded event. The charge names its
   * PaymentIntent and, as since API version 2025-03-31.basil, no invoice; `legacyInvoiceField` adds it as an older endpoint does.
   */
  refund(payment: { paymentIntent: string } | { invoice: string }, opts?: { legacyInvoiceField?: boolean }): { charge: any; payload: string; header: string };
  /**
   * A payment disputed by the payer's bank (a card chargeback; a SEPA return, created `lost`): the Dispute as Stripe sends it (its
   * id kept across its events, naming the charge and the PaymentIntent) and the signed event, `charge.dispute.created` by default.
   */
  dispute(payment: { paymentIntent: string } | { invoice: string }, status: string, opts?: { type?: string; reason?: string; amount?: number }): { dispute: any; payload: string; header: string };
}

/**
 * The parameters Stripe knows, per endpoint: like the real API, the fake refuses any other with
 * 400 `parameter_unknown`, so code that sends a misspelt or invented parameter fails here too.
 * Keys are paths with `[]` for an array index; extend this table when the code sends a new one.
 */
export const STRIPE_KNOWN_PARAMETERS: Record<string, readonly string[]> = {
  'POST /v1/checkout/sessions': [
    // Campaigns (#16): the payment method types set in payment settings.
    'allowed_payment_method_types[]',
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
  'GET /v1/invoice_payments': ['expand[]', 'invoice', 'limit', 'payment.payment_intent', 'payment.type', 'status'],
  'GET /v1/invoices/:id': ['expand[]'],
  // SEPA direct debits (ADR 029): stripe-debits.ts; the balance and payouts (ADR 033): stripe-balance.ts;
  // subscriptions running before the move (ADR 037): stripe-existing.ts.
  ...DEBIT_KNOWN_PARAMETERS,
  ...BALANCE_KNOWN_PARAMETERS,
  ...EXISTING_KNOWN_PARAMETERS,
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

/**
 * `deliverEvents`: events of subscription changes are also POSTed to `webhookUrl` right after the
 * API call answered, as Stripe does (the e2e server); otherwise a test sends them itself.
 */
export async function startFakeStripe(opts: { port: number; webhookSecret: string; webhookUrl: () => string; prices?: Record<string, number>; deliverEvents?: boolean }): Promise<FakeStripe> {
  const sessions = new Map<string, any>();
  /** Idempotency-Key → the request body it was first used with, and the answer given. */
  const idempotent = new Map<string, { body: string; answer: { status?: number; json: unknown } }>();
  let seq = 0;
  const sign = (payload: string, secret = opts.webhookSecret) => Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const complete = (id: string, overrides: Record<string, unknown> = {}) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`no session ${id}`);
    Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: s.mode === 'payment' ? `pi_${id}` : null, subscription: s.mode === 'subscription' ? `sub_${id}` : null, customer_details: { email: 'donor@example.org', name: 'Awa Diallo' } }, overrides);
    if (s.mode === 'subscription' && typeof s.subscription === 'string') createSubscription(s);
    // What the donor paid: a PaymentIntent (one-off), or the subscription's first invoice, which the session names.
    if (s.mode === 'payment' && typeof s.payment_intent === 'string') pay(s.payment_intent, s.amount_total, null);
    if (s.mode === 'subscription' && typeof s.subscription === 'string' && !s.invoice) s.invoice = bill(s.subscription, 'subscription_create', s.amount_total, s.customer_details?.email ?? null).id;
    const payload = JSON.stringify({ id: `evt_${++seq}`, object: 'event', type: 'checkout.session.completed', data: { object: s } });
    return { payload, header: sign(payload) };
  };
  const send = (payload: string, header: string) =>
    fetch(opts.webhookUrl(), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header }, body: payload });
  // ——— Subscriptions and billing portal (donor space, issue #15) ———
  const subscriptions = new Map<string, any>();
  const events: FakeStripe['events'] = [];
  const delivered: FakeStripe['delivered'] = [];
  const stripeError = (status: number, message: string) => ({ status, json: { error: { type: 'invalid_request_error', message } } });
  const event = (type: string, object: unknown) => {
    const payload = JSON.stringify({ id: `evt_${++seq}`, object: 'event', type, data: { object } });
    return { payload, header: sign(payload) };
  };
  const emit = (type: string, object: unknown) => {
    const e = { type, ...event(type, structuredClone(object)) };
    events.push(e);
    if (opts.deliverEvents) {
      setTimeout(() => void send(e.payload, e.header).then((r) => delivered.push({ type, status: r.status }), () => delivered.push({ type, status: 0 })), 50);
    }
  };
  function createSubscription(s: any) {
    if (subscriptions.has(s.subscription)) return;
    const key = s.id;
    subscriptions.set(s.subscription, {
      id: s.subscription,
      object: 'subscription',
      status: 'active',
      customer: `cus_${key}`,
      currency: 'eur',
      pause_collection: null,
      cancel_at_period_end: false,
      canceled_at: null,
      metadata: s.metadata ?? {},
      items: { object: 'list', data: [{ id: `si_${key}`, object: 'subscription_item', quantity: 1, price: { id: `price_${key}_0`, object: 'price', currency: 'eur', unit_amount: s.amount_total, product: `prod_${key}`, recurring: { interval: 'month', interval_count: 1 } } }] },
    });
  }
  /** POST /v1/subscriptions/:id — the parameters the donor space sends: a new price on the item, or pause_collection. */
  function updateSubscription(sub: any, p: Record<string, any>) {
    if (sub.status === 'canceled') return stripeError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
    if (p.items) {
      const it = p.items['0'];
      const item = sub.items.data[0];
      if (!it || it.id !== item.id) return stripeError(400, `No such subscription item: '${it?.id}'`);
      const pd = it.price_data;
      // The item's price may carry its product expanded ({ id, object: 'product' }), as with `expand`.
      const product = typeof item.price.product === 'string' ? item.price.product : item.price.product?.id;
      if (!pd || pd.product !== product || pd.currency !== 'eur' || pd.recurring?.interval !== 'month' || !/^\d+$/.test(pd.unit_amount ?? '')) return stripeError(400, 'Invalid price_data');
      item.price = { ...item.price, id: `price_${sub.id}_${++seq}`, unit_amount: Number(pd.unit_amount) };
    }
    if ('pause_collection' in p) sub.pause_collection = p.pause_collection === '' ? null : { behavior: p.pause_collection.behavior, resumes_at: null };
    emit('customer.subscription.updated', sub);
    return { json: sub };
  }
  const portals = new Map<string, any>();
  // ——— Invoices, payments and refunds ———
  const invoices = new Map<string, any>();
  const charges = new Map<string, any>();
  /** Which PaymentIntent paid which invoice (invoice_payment objects, GET /v1/invoice_payments). */
  const invoicePayments: any[] = [];
  /** The invoice each charge paid: what a charge showed as `invoice` before API version 2025-03-31.basil. */
  const invoiceOfCharge = new Map<string, string>();
  function pay(paymentIntent: string, amount: number, invoice: string | null) {
    if (charges.has(paymentIntent)) return;
    const charge = { id: `ch_${++seq}`, object: 'charge', amount, amount_captured: amount, amount_refunded: 0, captured: true, currency: 'eur', paid: true, refunded: false, status: 'succeeded', payment_intent: paymentIntent, metadata: {} };
    charges.set(paymentIntent, charge);
    balance.charged(charge);
    debits.paymentIntents.set(paymentIntent, { id: paymentIntent, object: 'payment_intent', amount, currency: 'eur', status: 'succeeded', payment_method_types: ['card'], latest_charge: charge.id, last_payment_error: null, metadata: {} });
    if (!invoice) return;
    invoiceOfCharge.set(charge.id, invoice);
    invoicePayments.push({ id: `inpay_${++seq}`, object: 'invoice_payment', amount_paid: amount, amount_requested: amount, currency: 'eur', invoice, is_default: true, status: 'paid', payment: { type: 'payment_intent', payment_intent: paymentIntent } });
  }
  /** A paid invoice of the subscription, and its payment. */
  function bill(subscriptionId: string, reason: 'subscription_create' | 'subscription_cycle', amount: number, email: string | null) {
    const id = `in_${++seq}${Date.now()}`;
    const invoice = {
      id,
      object: 'invoice',
      billing_reason: reason,
      status: 'paid',
      amount_due: amount,
      amount_paid: amount,
      currency: 'eur',
      customer: subscriptions.get(subscriptionId)?.customer ?? null,
      customer_email: email,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: {} } },
    };
    invoices.set(id, invoice);
    pay(`pi_${id}`, amount, id);
    return invoice;
  }
  const renew = (subscriptionId: string) => {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    const item = sub.items.data[0];
    const previous = [...invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscriptionId).at(-1);
    const invoice = bill(subscriptionId, 'subscription_cycle', item.price.unit_amount * item.quantity, previous?.customer_email ?? null);
    return { invoice: structuredClone(invoice), ...event('invoice.paid', invoice) };
  };
  const chargeOf = (payment: { paymentIntent: string } | { invoice: string }) => {
    const pi = 'paymentIntent' in payment ? payment.paymentIntent : invoicePayments.find((p) => p.invoice === payment.invoice)?.payment.payment_intent;
    const charge = charges.get(pi);
    if (!charge) throw new Error(`no payment for ${JSON.stringify(payment)}`);
    return charge;
  };
  const dispute: FakeStripe['dispute'] = (payment, status, opts = {}) => {
    const charge = chargeOf(payment);
    const d = { id: `dp_${charge.id}`, object: 'dispute', charge: charge.id, payment_intent: charge.payment_intent, amount: opts.amount ?? charge.amount, currency: charge.currency, reason: opts.reason ?? 'fraudulent', status, livemode: false, metadata: {} };
    if (status === 'lost') charge.disputed = true;
    balance.disputed(d);
    return { dispute: d, ...event(opts.type ?? 'charge.dispute.created', d) };
  };
  const refund: FakeStripe['refund'] = (payment, opts = {}) => {
    const charge = chargeOf(payment);
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    balance.refunded(charge);
    const sent = { ...structuredClone(charge), ...(opts.legacyInvoiceField ? { invoice: invoiceOfCharge.get(charge.id) ?? null } : {}) };
    return { charge: sent, ...event('charge.refunded', sent) };
  };
  const balance = fakeBalance(() => ++seq);
  const debits = fakeDebits({ sessions, charges, invoices, invoicePayments, subscriptions, createSubscription, next: () => ++seq, event, charged: balance.charged, expandCharge: balance.expandCharge });
  const moved = fakeExisting({ subscriptions, next: () => ++seq });
  const parameterUnknown = (param: string) => ({ status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param, message: `Received unknown parameter: ${param}` } } });

  const fake = await startFake(opts.port, async (req) => {
    const portal = /^\/portal\/(\w+)$/.exec(req.path);
    if (portal) {
      const ps = portals.get(portal[1]);
      if (!ps) return { status: 404, html: page('Not found', '') };
      return { html: page('Fake Stripe billing portal', `<p>Customer: ${ps.customer}</p><p><a href="${ps.return_url}">Return</a></p>`) };
    }
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
    const reshaped = fake2.reshapeNext && (answer.status ?? 200) < 300 ? fake2.reshapeNext(structuredClone(answer.json), req) : undefined;
    if (reshaped === undefined) return answer;
    fake2.reshapeNext = null;
    return { ...answer, json: reshaped };
  });
  const create = async (req: FakeRequest): Promise<{ status?: number; json: unknown }> => {
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const unknown = unknownParameter('POST /v1/checkout/sessions', req.body);
      if (unknown) return parameterUnknown(unknown);
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
      const s = { id, object: 'checkout.session', mode: p.mode, submit_type: p.submit_type ?? null, status: 'open', payment_status: 'unpaid', amount_total: amount, currency: 'eur', client_reference_id: p.client_reference_id, metadata: p.metadata ?? {}, success_url: p.success_url, cancel_url: p.cancel_url, line_items_in: item, line_items_count: Object.keys(p.line_items).length, allowed_payment_method_types: p.allowed_payment_method_types ? Object.values(p.allowed_payment_method_types) : null, url: `${fake.url}/pay/${id}`, customer_details: null, payment_intent: null, subscription: null, invoice: null };
      sessions.set(id, s);
      return { json: s };
    }
    const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const s = sessions.get(m[1]);
      return s ? { json: s } : { status: 404, json: { error: { type: 'invalid_request_error', message: 'No such checkout.session' } } };
    }
    // ——— Subscriptions and billing portal (donor space, issue #15); those running before the move (ADR 037) ———
    const listed = moved.route(req, (endpoint) => unknownParameter(endpoint, req.query.toString())); if (listed) return listed;
    const sm = /^\/v1\/subscriptions\/(\w+)$/.exec(req.path);
    if (sm) {
      const sub = subscriptions.get(sm[1]);
      if (!sub) return stripeError(404, `No such subscription: '${sm[1]}'`);
      if (req.method === 'GET') return { json: sub };
      if (req.method === 'POST') return updateSubscription(sub, parseBracketForm(req.body));
      if (req.method === 'DELETE') {
        if (sub.status === 'canceled') return stripeError(400, 'This subscription is already canceled.');
        Object.assign(sub, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
        emit('customer.subscription.deleted', sub);
        return { json: sub };
      }
    }
    // ——— Invoices and the payments that paid them ———
    if (req.method === 'GET' && req.path === '/v1/invoice_payments') {
      const unknown = unknownParameter('GET /v1/invoice_payments', req.query.toString());
      if (unknown) return parameterUnknown(unknown);
      const p = parseBracketForm(req.query.toString());
      if (p.payment && p.payment.type !== 'payment_intent') return stripeError(400, `Invalid payment[type]: '${p.payment.type}'`);
      const found = invoicePayments.filter((x) => (!p.invoice || x.invoice === p.invoice) && (!p.payment?.payment_intent || x.payment.payment_intent === p.payment.payment_intent) && (!p.status || x.status === p.status));
      const expandInvoice = Object.values(p.expand ?? {}).includes('data.invoice');
      const data = found.slice(0, Number(p.limit ?? 10)).map((x) => (expandInvoice ? { ...x, invoice: invoices.get(x.invoice) } : x));
      return { json: { object: 'list', url: '/v1/invoice_payments', has_more: found.length > data.length, data } };
    }
    const im = /^\/v1\/invoices\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && im) {
      const unknown = unknownParameter('GET /v1/invoices/:id', req.query.toString());
      if (unknown) return parameterUnknown(unknown);
      const invoice = invoices.get(im[1]);
      return invoice ? { json: invoice } : stripeError(404, `No such invoice: '${im[1]}'`);
    }
    if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
      const p = parseBracketForm(req.body);
      if (![...subscriptions.values()].some((x) => (typeof x.customer === 'string' ? x.customer : x.customer?.id) === p.customer)) return stripeError(400, `No such customer: '${p.customer}'`);
      if (!p.return_url) return stripeError(400, 'Missing required param: return_url.');
      const id = `bps_${++seq}`;
      const ps = { id, object: 'billing_portal.session', customer: p.customer, return_url: p.return_url, locale: p.locale ?? null, url: `${fake.url}/portal/${id}` };
      portals.set(id, ps);
      return { json: ps };
    }
    const unknownIn = (endpoint: string) => unknownParameter(endpoint, req.query.toString());
    return debits.route(req, unknownIn) ?? balance.route(req, unknownIn) ?? { status: 404, json: { error: { message: `unknown ${req.method} ${req.path}` } } };
  };
  const fake2: FakeStripe = { ...fake, sessions, complete, sign, send, failNext: 0, subscriptions, events, delivered, event, reshapeNext: null, invoices, charges, renew, refund, dispute, paymentIntents: debits.paymentIntents, mandates: debits.mandates, completeDebit: debits.completeDebit, settleDebit: debits.settleDebit, balanceTransactions: balance.balanceTransactions, payouts: balance.payouts, payout: balance.payout, customers: moved.customers, existing: moved.existing };
  return fake2;
}

