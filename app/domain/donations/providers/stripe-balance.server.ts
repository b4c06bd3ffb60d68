import type Stripe from 'stripe';
import type { Donation } from '../ledger.server';
import { isoOfUnix, type BalanceCapability, type BalanceMove, type MoveKind, type PayoutNews } from './balance';
import { stripeOf } from './stripe.server';
import { ask } from './stripe-debits.server';

/**
 * Stripe's own ledger (ADR 033): a payment's balance transaction through its PaymentIntent's latest
 * charge (`expand[]=latest_charge.balance_transaction`: amount, fee, net, available_on), its
 * refunds' (GET /v1/refunds?payment_intent=…) and its disputes' (`balance_transactions` of GET
 * /v1/disputes?payment_intent=…); the payouts (GET /v1/payouts, created[gte]) and, for each, the
 * balance transactions it carried (GET /v1/balance_transactions?payout=po_…), page after page.
 */

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : x?.id);

/** Stripe's reporting categories in our words. */
export function moveKind(txn: Pick<Stripe.BalanceTransaction, 'reporting_category' | 'type'>): MoveKind {
  const c = txn.reporting_category ?? txn.type;
  if (c === 'charge' || c === 'payment') return 'payment';
  if (c === 'refund' || c === 'payment_refund') return 'refund';
  if (c === 'dispute' || c === 'dispute_reversal') return 'dispute';
  return 'other';
}

export function moveOf(txn: Stripe.BalanceTransaction): BalanceMove {
  return {
    ref: txn.id,
    kind: moveKind(txn),
    grossMinor: txn.amount,
    feeMinor: txn.fee,
    netMinor: txn.net,
    currency: txn.currency.toUpperCase(),
    occurredAt: isoOfUnix(txn.created)!,
    availableAt: isoOfUnix(txn.available_on),
  };
}

/** The first invoice payment's PaymentIntent. */
async function intentOfInvoice(stripe: Stripe, invoice: string): Promise<string | undefined> {
  const payments = await ask(() => stripe.invoicePayments.list({ invoice, limit: 1 }));
  return idOf(payments.data[0]?.payment?.payment_intent);
}

/**
 * The PaymentIntent that paid a gift: a one-off gift keeps it (secondary_ref), a renewal is its
 * invoice (provider_ref), a first monthly instalment its checkout, whose invoice the session names.
 */
export async function intentOfGift(stripe: Stripe, d: Pick<Donation, 'provider_ref' | 'secondary_ref'>): Promise<string | undefined> {
  if (d.secondary_ref?.startsWith('pi_')) return d.secondary_ref;
  if (d.provider_ref.startsWith('in_')) return intentOfInvoice(stripe, d.provider_ref);
  if (!d.provider_ref.startsWith('cs_')) return undefined;
  const session = await ask(() => stripe.checkout.sessions.retrieve(d.provider_ref));
  const pi = idOf(session.payment_intent);
  if (pi) return pi;
  const invoice = idOf(session.invoice);
  return invoice ? intentOfInvoice(stripe, invoice) : undefined;
}

const expandedTxn = (x: string | Stripe.BalanceTransaction | null | undefined) => (x && typeof x === 'object' ? x : undefined);

export async function stripeMoves(stripe: Stripe, d: Pick<Donation, 'provider_ref' | 'secondary_ref'>): Promise<BalanceMove[]> {
  const pi = await intentOfGift(stripe, d);
  if (!pi) return [];
  const intent = await ask(() => stripe.paymentIntents.retrieve(pi, { expand: ['latest_charge.balance_transaction'] }));
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const paid = expandedTxn(charge?.balance_transaction);
  // No balance transaction yet (a debit on its way): nothing, asked again later.
  if (!paid) return [];
  const refunds = await ask(() => stripe.refunds.list({ payment_intent: pi, limit: 100, expand: ['data.balance_transaction'] }));
  const disputes = await ask(() => stripe.disputes.list({ payment_intent: pi, limit: 100 }));
  const txns = [paid, ...refunds.data.flatMap((r) => expandedTxn(r.balance_transaction) ?? []), ...disputes.data.flatMap((x) => x.balance_transactions ?? [])];
  return txns.map(moveOf);
}

/** Pages of a Stripe list, `starting_after` the last one seen; at most `maxPages` pages. */
async function everyPage<T extends { id: string }>(page: (startingAfter?: string) => Promise<Stripe.ApiList<T>>, maxPages = 20): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i += 1) {
    const list = await ask(() => page(after));
    out.push(...list.data);
    if (!list.has_more || list.data.length === 0) break;
    after = list.data.at(-1)!.id;
  }
  return out;
}

export async function stripePayouts(stripe: Stripe, since: Date): Promise<PayoutNews[]> {
  const gte = Math.floor(since.getTime() / 1000);
  const payouts = await everyPage((after) => stripe.payouts.list({ created: { gte }, limit: 100, ...(after ? { starting_after: after } : {}) }));
  const out: PayoutNews[] = [];
  for (const p of payouts) {
    const txns = await everyPage((after) => stripe.balanceTransactions.list({ payout: p.id, limit: 100, ...(after ? { starting_after: after } : {}) }));
    out.push({
      ref: p.id,
      amountMinor: p.amount,
      currency: p.currency.toUpperCase(),
      status: p.status,
      createdAt: isoOfUnix(p.created)!,
      arrivalAt: isoOfUnix(p.arrival_date),
      // The payout's own withdrawal from the balance is the payout itself (provider_payouts).
      moves: txns.filter((t) => t.type !== 'payout' || idOf(t.source) !== p.id).map(moveOf),
    });
  }
  return out;
}

export const stripeBalance: BalanceCapability = {
  moves: (deps, donation) => stripeMoves(stripeOf(deps), donation),
  // Stripe not set up: no payout to read (the hourly catch-up says nothing).
  payouts: async (deps, since) => (deps.settings.secrets['stripe.secretKey'] ? stripePayouts(stripeOf(deps), since) : []),
};
