import { parseBracketForm, type FakeRequest } from './http';

/**
 * Stripe's balance in the fake (ADR 033), in the documented shapes: each succeeded charge gets a
 * balance transaction (`txn_…`, type `charge`) with Stripe's European card fee, 1.5 % + 0.25 €
 * (rounded to the cent); a refund (`re_…`) a `refund` transaction of minus the amount and no fee;
 * a dispute a `dispute` withdrawal of minus the amount and its 15 € fee, and a reinstatement when
 * won (both in the dispute's `balance_transactions`). `payout()` pays out every movement not yet
 * paid out, as an automatic payout does: a `po_…` and its own `payout` transaction.
 */
export interface FakeBalance {
  balanceTransactions: Map<string, any>;
  payouts: Map<string, any>;
  /** An automatic payout of every available movement not paid out yet (none: throws). */
  payout(opts?: { status?: string }): any;
}

export const BALANCE_KNOWN_PARAMETERS: Record<string, readonly string[]> = {
  'GET /v1/refunds': ['expand[]', 'limit', 'payment_intent', 'starting_after'],
  'GET /v1/disputes': ['limit', 'payment_intent', 'starting_after'],
  'GET /v1/payouts': ['created.gte', 'limit', 'starting_after'],
  'GET /v1/balance_transactions': ['limit', 'payout', 'starting_after', 'type'],
};

/** Stripe's fee on a European card payment, as the fake charges it. */
export const fakeCardFee = (amount: number) => Math.round(amount * 0.015) + 25;
export const DISPUTE_FEE = 1500;
const DAY = 86_400;

export function fakeBalance(next: () => number) {
  const balanceTransactions = new Map<string, any>();
  const payouts = new Map<string, any>();
  const refunds: any[] = [];
  const disputes = new Map<string, any>();
  const now = () => Math.floor(Date.now() / 1000);
  const txn = (type: string, category: string, amount: number, fee: number, source: string) => {
    const t = { id: `txn_${next()}`, object: 'balance_transaction', amount, available_on: now() + 2 * DAY, created: now(), currency: 'eur', description: null, exchange_rate: null, fee, fee_details: fee ? [{ amount: fee, currency: 'eur', type: 'stripe_fee', description: 'Stripe processing fees' }] : [], net: amount - fee, reporting_category: category, source, status: 'pending', type, payout: null as string | null };
    balanceTransactions.set(t.id, t);
    return t;
  };
  /** A charge now succeeded: its balance transaction, named by the charge. */
  const charged = (charge: any) => {
    if (!charge.balance_transaction) charge.balance_transaction = txn('charge', 'charge', charge.amount, fakeCardFee(charge.amount), charge.id).id;
  };
  const refunded = (charge: any) => {
    const id = `re_${next()}`;
    const t = txn('refund', 'refund', -charge.amount, 0, id);
    refunds.push({ id, object: 'refund', amount: charge.amount, balance_transaction: t.id, charge: charge.id, currency: 'eur', payment_intent: charge.payment_intent, status: 'succeeded', created: now() });
  };
  /** The dispute as Stripe sends it, its balance transactions so far inside. */
  const disputed = (d: any) => {
    const known = disputes.get(d.id) ?? { ...d, balance_transactions: [txn('adjustment', 'dispute', -d.amount, DISPUTE_FEE, d.id)] };
    if (d.status === 'won' && known.balance_transactions.length === 1) known.balance_transactions.push(txn('adjustment', 'dispute_reversal', d.amount, -DISPUTE_FEE, d.id));
    Object.assign(known, { status: d.status });
    disputes.set(d.id, known);
    d.balance_transactions = structuredClone(known.balance_transactions);
  };
  const payout = (opts: { status?: string } = {}) => {
    const carried = [...balanceTransactions.values()].filter((t) => !t.payout && t.type !== 'payout');
    if (carried.length === 0) throw new Error('nothing to pay out');
    const amount = carried.reduce((s, t) => s + t.net, 0);
    const id = `po_${next()}`;
    const p = { id, object: 'payout', amount, arrival_date: now() + DAY, automatic: true, created: now(), currency: 'eur', method: 'standard', status: opts.status ?? 'paid', type: 'bank_account', balance_transaction: '' };
    const own = txn('payout', 'payout', -amount, 0, id);
    p.balance_transaction = own.id;
    for (const t of [...carried, own]) Object.assign(t, { payout: id, status: 'available' });
    payouts.set(id, p);
    return structuredClone(p);
  };
  const list = (url: string, all: any[], q: Record<string, any>) => {
    const from = q.starting_after ? all.findIndex((x) => x.id === q.starting_after) + 1 : 0;
    const limit = Number(q.limit ?? 10);
    const data = all.slice(from, from + limit);
    return { json: { object: 'list', url, has_more: from + limit < all.length, data } };
  };
  const bare = (t: any) => {
    const { payout: _p, ...rest } = t;
    return rest;
  };
  /** The balance's endpoints; undefined for another path. */
  function route(req: FakeRequest, unknown: (endpoint: string) => string | undefined): { status?: number; json: unknown } | undefined {
    if (req.method !== 'GET' || !BALANCE_KNOWN_PARAMETERS[`GET ${req.path}`]) return undefined;
    const refused = unknown(`GET ${req.path}`);
    if (refused) return { status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: refused, message: `Received unknown parameter: ${refused}` } } };
    const q = parseBracketForm(req.query.toString());
    if (req.path === '/v1/refunds') {
      const expand = Object.values<string>(q.expand ?? {}).includes('data.balance_transaction');
      const mine = refunds.filter((r) => !q.payment_intent || r.payment_intent === q.payment_intent).map((r) => (expand ? { ...r, balance_transaction: bare(balanceTransactions.get(r.balance_transaction)) } : r));
      return list('/v1/refunds', mine, q);
    }
    if (req.path === '/v1/disputes') return list('/v1/disputes', [...disputes.values()].filter((d) => !q.payment_intent || d.payment_intent === q.payment_intent).map((d) => ({ ...d, balance_transactions: d.balance_transactions.map(bare) })), q);
    // Stripe lists the newest first.
    if (req.path === '/v1/payouts') return list('/v1/payouts', [...payouts.values()].filter((p) => !q.created?.gte || p.created >= Number(q.created.gte)).reverse(), q);
    if (req.path === '/v1/balance_transactions') {
      if (q.payout && !payouts.has(q.payout)) return { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payout: '${q.payout}'` } } };
      return list('/v1/balance_transactions', [...balanceTransactions.values()].filter((t) => (!q.payout || t.payout === q.payout) && (!q.type || t.type === q.type)).reverse().map(bare), q);
    }
    return undefined;
  }
  /** `latest_charge.balance_transaction` expanded on a PaymentIntent whose latest charge is expanded. */
  const expandCharge = (charge: any) => (charge && typeof charge.balance_transaction === 'string' ? { ...charge, balance_transaction: bare(balanceTransactions.get(charge.balance_transaction)) } : charge);
  return { balanceTransactions, payouts, payout, charged, refunded, disputed, route, expandCharge };
}
