import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { log } from '~/lib/log.server';
import type { DonationDeps } from '../context.server';
import { findBySecondaryRef } from '../ledger.server';
import { changeShown, followSubscription, recordFailedInstalment as recordFailure, type GiftChange, type SubscriptionState } from '../monthly.server';
import type { SubscriptionCapability } from './provider';
import { listExisting, readExisting } from './stripe-adoption.server';
import { stripeOf, subscriptionOfInvoice } from './stripe.server';
import { ProviderError } from './types';

/**
 * Monthly gifts as Stripe subscriptions (ADR 013, ADR 019): Stripe's side of the subscriptions
 * capability. A donor's change is asked of Stripe and handed back only when Stripe's answer shows
 * it; the billing portal is where a card is updated; Stripe's subscription events become the
 * register's words (monthly.server.ts), which records them.
 */

async function ask<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

const UNEXPECTED = 'réponse inattendue de Stripe';
const itemOf = (sub: Stripe.Subscription) => sub.items?.data?.[0];
const productOf = (sub: Stripe.Subscription) => {
  const p = itemOf(sub)?.price?.product;
  return typeof p === 'string' ? p : p?.id;
};

/** What Stripe's subscription says, in our words. */
export function stateOf(sub: Stripe.Subscription): SubscriptionState {
  const price = itemOf(sub)?.price;
  const status: SubscriptionState['status'] =
    sub.status === 'canceled' || sub.status === 'incomplete_expired' ? 'ended' : sub.pause_collection ? 'paused' : sub.status === 'past_due' || sub.status === 'unpaid' ? 'past_due' : 'active';
  return { status, amountMinor: price?.unit_amount ?? null, currency: price?.currency?.toUpperCase() ?? null };
}

/** Asks Stripe for one change of a subscription; Stripe's answer. */
async function askChange(stripe: Stripe, id: string, change: GiftChange): Promise<Stripe.Subscription> {
  if (change.kind === 'paused') return ask(() => stripe.subscriptions.update(id, { pause_collection: { behavior: 'void' } }));
  if (change.kind === 'resumed') return ask(() => stripe.subscriptions.update(id, { pause_collection: '' }));
  if (change.kind === 'stopped') return ask(() => stripe.subscriptions.cancel(id));
  const current = await ask(() => stripe.subscriptions.retrieve(id));
  const item = itemOf(current);
  const product = productOf(current);
  if (!item || !product) throw new ProviderError('stripe', 'abonnement sans article');
  // The new price applies from the next instalment: no proration, nothing charged now.
  return ask(() =>
    stripe.subscriptions.update(
      id,
      { items: [{ id: item.id, price_data: { currency: 'eur', product, unit_amount: change.amountMinor, recurring: { interval: 'month' } } }], proration_behavior: 'none' },
      { idempotencyKey: `gift-${id}-amount-${change.amountMinor}-${randomUUID()}` },
    ),
  );
}

type InvoiceLike = Stripe.Invoice & { subscription?: string | { id: string } | null };

/**
 * invoice.payment_failed: the register records one failed instalment per invoice (Stripe retries
 * and re-sends the event; the invoice's reference makes it once). Only a gift we started, in EUR.
 */
export async function recordFailedInstalment(deps: DonationDeps, invoice: InvoiceLike): Promise<void> {
  const subId = subscriptionOfInvoice(invoice);
  if (!subId || !invoice.id) return;
  const first = await findBySecondaryRef(deps.db, 'stripe', subId);
  if (!first || invoice.currency?.toUpperCase() !== 'EUR') return;
  await recordFailure(deps, first, { ref: `${invoice.id}:failed`, amountMinor: invoice.amount_due, email: invoice.customer_email });
}

/**
 * customer.subscription.updated / .deleted: the gift follows what Stripe says. Events may arrive
 * out of order, so the subscription is read again from Stripe; the event's own copy serves only
 * when Stripe cannot be asked.
 */
export async function syncMonthlyGift(deps: DonationDeps, event: Stripe.Subscription, eventId: string): Promise<void> {
  const first = await findBySecondaryRef(deps.db, 'stripe', event.id);
  if (!first) return;
  await followSubscription(
    deps,
    first,
    async () => {
      try {
        return stateOf(await ask(() => stripeOf(deps).subscriptions.retrieve(event.id)));
      } catch (e) {
        log.warn('subscription not re-read from Stripe; using the event', { gift: event.id, error: e instanceof Error ? e.message : String(e) });
        return stateOf(event);
      }
    },
    eventId,
  );
}

export const stripeSubscriptions: SubscriptionCapability = {
  async onWebhook(deps, { event }) {
    if (event.type === 'invoice.payment_failed') await recordFailedInstalment(deps, event.object as InvoiceLike);
    else await syncMonthlyGift(deps, event.object as Stripe.Subscription, event.id);
  },

  async change(deps, id, change) {
    const answer = await askChange(stripeOf(deps), id, change);
    const shown = { id: answer.id, state: stateOf(answer) };
    if (!changeShown(change, id, shown)) {
      log.warn('Stripe did not confirm a monthly gift change', { gift: id, change: change.kind, status: answer.status });
      throw new ProviderError('stripe', UNEXPECTED);
    }
    return shown.state;
  },

  async paymentUpdateUrl(deps, id, returnUrl, lang) {
    const stripe = stripeOf(deps);
    const sub = await ask(() => stripe.subscriptions.retrieve(id));
    const customer = typeof sub.customer === 'string' ? sub.customer : sub.customer?.id;
    if (!customer) throw new ProviderError('stripe', 'abonnement sans client');
    const portal = await ask(() => stripe.billingPortal.sessions.create({ customer, return_url: returnUrl, locale: lang }));
    // Stripe types the url as a string; were it missing, test() reads "undefined"/"null" and refuses it too.
    if (portal.customer !== customer || !/^https?:\/\//.test(portal.url)) throw new ProviderError('stripe', UNEXPECTED);
    return portal.url;
  },

  listExisting,
  readExisting,
};
