import { parseBracketForm, type FakeRequest } from './http';

/**
 * SEPA direct debits in the fake Stripe (ADR 029), in Stripe's documented shapes: a Checkout
 * Session the donor completes by signing a mandate is `complete` but `unpaid`; its PaymentIntent is
 * `processing`, paid by a `sepa_debit` PaymentMethod, its latest charge `pending` with
 * `payment_method_details.sepa_debit` (last4, mandate); the Mandate (GET /v1/mandates/:id) has its
 * `payment_method_details.sepa_debit.reference` and `customer_acceptance.accepted_at`. Days later
 * the debit settles: `checkout.session.async_payment_succeeded` / `_failed` for a one-off gift, the
 * first invoice's `invoice.paid` / `invoice.payment_failed` for a monthly one.
 */
export interface FakeDebits {
  paymentIntents: Map<string, any>;
  mandates: Map<string, any>;
  /** The donor signs the mandate: the session completes unpaid; the signed checkout.session.completed. */
  completeDebit(id: string, overrides?: Record<string, unknown>): { payload: string; header: string };
  /** The bank's answer, days later: the signed event Stripe sends (async_payment_* or the first invoice's). */
  settleDebit(id: string, outcome: 'succeeded' | 'failed'): { type: string; payload: string; header: string };
}

interface Shared {
  sessions: Map<string, any>;
  charges: Map<string, any>;
  invoices: Map<string, any>;
  invoicePayments: any[];
  subscriptions: Map<string, any>;
  createSubscription(s: any): void;
  next(): number;
  event(type: string, object: unknown): { payload: string; header: string };
  /** The balance (stripe-balance.ts): a charge succeeded; a charge with its balance transaction expanded. */
  charged(charge: any): void;
  expandCharge(charge: any): any;
}

/** The parameters Stripe knows on the endpoints below (fakes-strictness). */
export const DEBIT_KNOWN_PARAMETERS: Record<string, readonly string[]> = {
  'GET /v1/payment_intents/:id': ['client_secret', 'expand[]'],
  'GET /v1/mandates/:id': ['expand[]'],
};

const expanded = (x: any, expand: string[], objects: Record<string, Map<string, any>>) => {
  const out = { ...x };
  for (const field of expand) if (objects[field] && typeof out[field] === 'string') out[field] = objects[field].get(out[field]) ?? out[field];
  return out;
};

export function fakeDebits(s: Shared): FakeDebits & { route(req: FakeRequest, unknown: (endpoint: string) => string | undefined): { status?: number; json: unknown } | undefined } {
  const paymentIntents = new Map<string, any>();
  const mandates = new Map<string, any>();
  const methods = new Map<string, any>();
  const now = () => Math.floor(Date.now() / 1000);

  /** The mandate, the payment method and a processing PaymentIntent with its pending charge. */
  function debit(pi: string, amount: number, multiUse: boolean) {
    const n = s.next();
    const pm = { id: `pm_${n}`, object: 'payment_method', type: 'sepa_debit', sepa_debit: { bank_code: '20041', branch_code: '01005', country: 'FR', fingerprint: `fp${n}`, last4: '3000', generated_from: null } };
    methods.set(pm.id, pm);
    const mandate = {
      id: `mandate_${n}`,
      object: 'mandate',
      customer_acceptance: { accepted_at: now(), online: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0' }, type: 'online' },
      livemode: false,
      ...(multiUse ? { multi_use: {} } : { single_use: { amount, currency: 'eur' } }),
      payment_method: pm.id,
      payment_method_details: { sepa_debit: { reference: `THV${String(n).padStart(8, '0')}`, url: `https://stripe.example/mandates/${n}` }, type: 'sepa_debit' },
      status: 'active',
      type: multiUse ? 'multi_use' : 'single_use',
    };
    mandates.set(mandate.id, mandate);
    const charge = {
      id: `ch_${s.next()}`, object: 'charge', amount, amount_captured: amount, amount_refunded: 0, captured: true, currency: 'eur', paid: false, refunded: false, status: 'pending', payment_intent: pi, payment_method: pm.id, metadata: {},
      payment_method_details: { type: 'sepa_debit', sepa_debit: { bank_code: pm.sepa_debit.bank_code, branch_code: pm.sepa_debit.branch_code, country: 'FR', fingerprint: pm.sepa_debit.fingerprint, last4: pm.sepa_debit.last4, mandate: mandate.id } },
    };
    s.charges.set(pi, charge);
    paymentIntents.set(pi, { id: pi, object: 'payment_intent', amount, currency: 'eur', status: 'processing', payment_method: pm.id, payment_method_types: ['sepa_debit'], latest_charge: charge.id, last_payment_error: null, metadata: {} });
  }

  const completeDebit: FakeDebits['completeDebit'] = (id, overrides = {}) => {
    const session = s.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    const monthly = session.mode === 'subscription';
    Object.assign(session, { status: 'complete', payment_status: 'unpaid', payment_intent: monthly ? null : `pi_${id}`, subscription: monthly ? `sub_${id}` : null, customer_details: { email: 'donor@example.org', name: 'Awa Diallo' } }, overrides);
    if (monthly) {
      s.createSubscription(session);
      const invoiceId = `in_${s.next()}${Date.now()}`;
      const pi = `pi_${invoiceId}`;
      s.invoices.set(invoiceId, {
        id: invoiceId, object: 'invoice', billing_reason: 'subscription_create', status: 'open', amount_due: session.amount_total, amount_paid: 0, amount_remaining: session.amount_total, attempt_count: 1, currency: 'eur',
        customer: s.subscriptions.get(session.subscription).customer, customer_email: session.customer_details?.email ?? null, status_transitions: { paid_at: null },
        parent: { type: 'subscription_details', subscription_details: { subscription: session.subscription, metadata: {} } },
      });
      s.invoicePayments.push({ id: `inpay_${s.next()}`, object: 'invoice_payment', amount_paid: null, amount_requested: session.amount_total, currency: 'eur', invoice: invoiceId, is_default: true, status: 'open', payment: { type: 'payment_intent', payment_intent: pi } });
      session.invoice = invoiceId;
      debit(pi, session.amount_total, true);
    } else debit(session.payment_intent, session.amount_total, false);
    return s.event('checkout.session.completed', session);
  };

  const settleDebit: FakeDebits['settleDebit'] = (id, outcome) => {
    const session = s.sessions.get(id);
    const pay = session?.invoice ? s.invoicePayments.find((p) => p.invoice === session.invoice) : undefined;
    const pi = paymentIntents.get(pay ? pay.payment.payment_intent : session?.payment_intent);
    if (!pi) throw new Error(`no debit for ${id}`);
    const charge = s.charges.get(pi.id);
    const ok = outcome === 'succeeded';
    Object.assign(pi, ok ? { status: 'succeeded' } : { status: 'requires_payment_method', last_payment_error: { code: 'insufficient_funds', message: 'The account has insufficient funds.' } });
    Object.assign(charge, ok ? { status: 'succeeded', paid: true } : { status: 'failed', failure_code: 'insufficient_funds', failure_message: 'The account has insufficient funds.' });
    if (ok) s.charged(charge);
    const type = pay ? (ok ? 'invoice.paid' : 'invoice.payment_failed') : ok ? 'checkout.session.async_payment_succeeded' : 'checkout.session.async_payment_failed';
    if (!pay) {
      if (ok) session.payment_status = 'paid';
      return { type, ...s.event(type, structuredClone(session)) };
    }
    const invoice = s.invoices.get(pay.invoice);
    if (ok) {
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0, status_transitions: { paid_at: now() } });
      Object.assign(pay, { status: 'paid', amount_paid: invoice.amount_due });
      session.payment_status = 'paid';
    } else s.subscriptions.get(session.subscription).status = 'past_due';
    return { type, ...s.event(type, structuredClone(invoice)) };
  };

  /** GET /v1/payment_intents/:id and GET /v1/mandates/:id; `unknown` names a parameter the endpoint does not know (400, as Stripe). */
  function route(req: FakeRequest, unknown: (endpoint: string) => string | undefined): { status?: number; json: unknown } | undefined {
    const refuse = (param: string) => ({ status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param, message: `Received unknown parameter: ${param}` } } });
    const notFound = (what: string, id: string) => ({ status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } } });
    const pm = /^\/v1\/payment_intents\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && pm) {
      const refused = unknown('GET /v1/payment_intents/:id');
      if (refused) return refuse(refused);
      const pi = paymentIntents.get(pm[1]);
      if (!pi) return notFound('payment_intent', pm[1]);
      const charges = new Map([...s.charges.values()].map((c) => [c.id, c]));
      const expand = Object.values<string>(parseBracketForm(req.query.toString()).expand ?? {});
      // Stripe expands a path's every step: `latest_charge.balance_transaction` expands the charge too.
      const json = expanded(pi, expand.map((e) => e.split('.')[0]), { latest_charge: charges, payment_method: methods });
      return { json: expand.includes('latest_charge.balance_transaction') ? { ...json, latest_charge: s.expandCharge(json.latest_charge) } : json };
    }
    const mm = /^\/v1\/mandates\/(\w+)$/.exec(req.path);
    if (req.method === 'GET' && mm) {
      const refused = unknown('GET /v1/mandates/:id');
      if (refused) return refuse(refused);
      return mandates.has(mm[1]) ? { json: mandates.get(mm[1]) } : notFound('mandate', mm[1]);
    }
    return undefined;
  }

  return { paymentIntents, mandates, completeDebit, settleDebit, route };
}
