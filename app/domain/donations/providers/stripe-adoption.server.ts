import type Stripe from 'stripe';
import { isLang } from '~/lib/lang-path';
import type { DonationDeps } from '../context.server';
import type { ExistingSubscription } from './provider';
import { stripeOf } from './stripe.server';
import { ProviderError } from './types';

/**
 * The subscriptions already running on the foundation's Stripe account when it moves in (ADR 037),
 * read with the payments' own key: listed (`GET /v1/subscriptions?status=active`, page after page
 * with `starting_after`, each with its customer expanded) and read again one by one before one is
 * adopted, so that what is adopted is what Stripe says now, never what a form posted.
 */

/** At most this many pages of 100 are read: 10 000 subscriptions. */
const MAX_PAGES = 100;

const iso = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);

async function ask<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

type SubscriptionLike = Stripe.Subscription & { current_period_end?: number };

/** Why a subscription cannot be a monthly gift here, or null (one monthly price in euros). */
function refusalOf(sub: SubscriptionLike): string | null {
  const items = sub.items?.data ?? [];
  const price = items[0]?.price;
  if (items.length !== 1 || (items[0].quantity ?? 1) !== 1) return 'plusieurs articles : à reprendre à la main';
  if (!price || price.currency?.toLowerCase() !== 'eur') return `en ${price?.currency?.toUpperCase() ?? '?'} : seuls les dons en euros sont repris`;
  if (price.recurring?.interval !== 'month' || (price.recurring.interval_count ?? 1) !== 1) return 'pas mensuel';
  if (!Number.isInteger(price.unit_amount) || (price.unit_amount ?? 0) <= 0) return 'montant inconnu';
  if (sub.status !== 'active') return `état « ${sub.status} »`;
  return null;
}

/** What Stripe's subscription and its customer say, in our words. */
export function existingOf(sub: SubscriptionLike): ExistingSubscription {
  const item = sub.items?.data?.[0];
  const customer = typeof sub.customer === 'object' && sub.customer && !('deleted' in sub.customer && sub.customer.deleted) ? (sub.customer as Stripe.Customer) : null;
  const locale = customer?.preferred_locales?.[0]?.slice(0, 2).toLowerCase();
  return {
    id: sub.id,
    amountMinor: item?.price?.unit_amount ?? 0,
    currency: item?.price?.currency?.toUpperCase() ?? '',
    startedAt: iso(sub.start_date ?? sub.created) ?? new Date().toISOString(),
    // Since API version 2025-03-31.basil the period is the item's; the subscription's own field before.
    nextAt: iso(item?.current_period_end ?? sub.current_period_end),
    email: customer?.email?.trim().toLowerCase() || null,
    name: customer?.name?.trim() || null,
    lang: isLang(locale) ? locale : 'fr',
    refusal: customer?.email ? refusalOf(sub) : 'client sans adresse e-mail',
  };
}

export async function listExisting(deps: DonationDeps): Promise<ExistingSubscription[]> {
  const stripe = stripeOf(deps);
  const out: ExistingSubscription[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await ask(() => stripe.subscriptions.list({ status: 'active', limit: 100, expand: ['data.customer'], ...(after ? { starting_after: after } : {}) }));
    out.push(...list.data.map((s) => existingOf(s)));
    if (!list.has_more || list.data.length === 0) break;
    after = list.data[list.data.length - 1].id;
  }
  return out;
}

export async function readExisting(deps: DonationDeps, id: string): Promise<ExistingSubscription | null> {
  if (!/^sub_\w{1,200}$/.test(id)) return null;
  try {
    return existingOf(await stripeOf(deps).subscriptions.retrieve(id, { expand: ['customer'] }));
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return null;
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}
