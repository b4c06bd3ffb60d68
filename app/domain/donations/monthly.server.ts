import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { DB } from '~db/index';
import type { MonthlyGiftTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { MessageKey } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import type { DonationDeps } from './context.server';
import { langOf, sendDonorMail, spaceUrl } from './donor-mail.server';
import { publish } from './events.server';
import { findBySecondaryRef, recordFromProvider, type Donation } from './ledger.server';
import { formatMoney, toDecimalString } from '~/lib/currency';
import type { SubscriptionCapability } from './providers/provider';
import { stripeOf, subscriptionOfInvoice } from './providers/stripe.server';
import { ProviderError, returnOrigin } from './providers/types';

/**
 * Monthly gifts (Stripe subscriptions) as the donor manages them (ADR 013). Every change is asked
 * of Stripe, kept only when Stripe's answer shows it, then recorded (monthly_gifts +
 * monthly_gift_events + audit log) and confirmed by mail. Webhooks keep the state in step with
 * what happens at Stripe (failed instalment, end, changes made elsewhere).
 */
export type MonthlyGift = MonthlyGiftTable;
export type GiftStatus = 'active' | 'paused' | 'past_due' | 'ended';
export type GiftSource = 'donor' | 'admin' | 'provider';

/** What a donor's monthly gift looks like on their page. */
export interface MonthlyGiftView {
  id: string;
  amountMinor: number;
  currency: string;
  status: GiftStatus;
  startedAt: string;
}

const sameEmail = (email: string) => (eb: any) => eb(eb.fn('lower', ['donor_email']), '=', email);

/** The gift's row, created from its first donation the first time it is needed. */
async function ensureGift(db: DB, first: Donation): Promise<MonthlyGift> {
  const subId = first.secondary_ref!;
  await db
    .insertInto('monthly_gifts')
    .values({ id: subId, provider: first.provider, first_donation_id: first.id, amount_minor: first.amount_minor, currency: first.currency, status: 'active', updated_at: first.created_at })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db.selectFrom('monthly_gifts').selectAll().where('id', '=', subId).executeTakeFirstOrThrow();
}

/** The monthly gifts started from this email (newest first), ended ones included. */
export async function monthlyGiftsOf(db: DB, email: string): Promise<MonthlyGiftView[]> {
  const firsts = await db
    .selectFrom('donations')
    .selectAll()
    .where(sameEmail(email))
    .where('provider', '=', 'stripe')
    .where('frequency', '=', 'monthly')
    .where('status', 'in', ['succeeded', 'refunded'])
    .where('secondary_ref', 'is not', null)
    .orderBy('created_at')
    .execute();
  const seen = new Map<string, Donation>();
  for (const d of firsts) if (!seen.has(d.secondary_ref!)) seen.set(d.secondary_ref!, d);
  const views: MonthlyGiftView[] = [];
  for (const first of seen.values()) {
    // A renewal row can carry the email too; only the checkout's own row starts a gift.
    const origin = await findBySecondaryRef(db, 'stripe', first.secondary_ref!);
    if (!origin || origin.id !== first.id) continue;
    const g = await ensureGift(db, first);
    views.push({ id: g.id, amountMinor: g.amount_minor, currency: g.currency, status: g.status as GiftStatus, startedAt: first.created_at });
  }
  return views.reverse();
}

/**
 * The state of the monthly gifts these subscription ids name (a monthly donation's `secondary_ref`),
 * for the back office's list of donations: a failed instalment leaves its gift 'past_due' until a
 * payment or the donor's new card settles it. Ids of gifts never seen here are absent.
 */
export async function giftStates(db: DB, ids: (string | null)[]): Promise<Map<string, GiftStatus>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('monthly_gifts').select(['id', 'status']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.status as GiftStatus]));
}

/** The gift, only when it was started from this email: a donor never reaches another's gift. */
export async function giftOfDonor(db: DB, email: string, giftId: string): Promise<{ gift: MonthlyGift; first: Donation } | null> {
  if (!giftId || giftId.length > 255) return null;
  const gift = (await monthlyGiftsOf(db, email)).find((g) => g.id === giftId);
  if (!gift) return null;
  const row = await db.selectFrom('monthly_gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
  const first = await db.selectFrom('donations').selectAll().where('id', '=', row.first_donation_id).executeTakeFirstOrThrow();
  return { gift: row, first };
}

export async function giftEvents(db: DB, giftId: string) {
  return db.selectFrom('monthly_gift_events').selectAll().where('gift_id', '=', giftId).orderBy('at').orderBy('id').execute();
}

/* ---------------- Stripe calls ---------------- */

async function ask<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

const itemOf = (sub: Stripe.Subscription) => sub.items?.data?.[0];
const productOf = (sub: Stripe.Subscription) => {
  const p = itemOf(sub)?.price?.product;
  return typeof p === 'string' ? p : p?.id;
};

/** What Stripe's subscription says, in our words. */
export function stateOf(sub: Stripe.Subscription): { status: GiftStatus; amountMinor: number | null; currency: string | null } {
  const price = itemOf(sub)?.price;
  const status: GiftStatus =
    sub.status === 'canceled' || sub.status === 'incomplete_expired' ? 'ended' : sub.pause_collection ? 'paused' : sub.status === 'past_due' || sub.status === 'unpaid' ? 'past_due' : 'active';
  return { status, amountMinor: price?.unit_amount ?? null, currency: price?.currency?.toUpperCase() ?? null };
}

export type GiftChange = { kind: 'amount'; amountMinor: number } | { kind: 'paused' } | { kind: 'resumed' } | { kind: 'stopped' };

const CHANGE_MAIL: Record<GiftChange['kind'], MessageKey> = {
  amount: 'donorMail.amountChanged',
  paused: 'donorMail.paused',
  resumed: 'donorMail.resumed',
  stopped: 'donorMail.stopped',
};

/** Amounts a donor may choose for a monthly gift, in cents. */
export const MONTHLY_MIN_CENTS = 100;
export const MONTHLY_MAX_CENTS = 1_000_000;

/**
 * Asks Stripe for the change, checks that its answer shows it, then records it and mails the donor.
 * Throws ProviderError when Stripe refuses, cannot be reached, or answers something else.
 */
export async function changeGift(deps: DonationDeps, target: { gift: MonthlyGift; first: Donation }, change: GiftChange, by: { source: GiftSource; actor: Actor }): Promise<MonthlyGift> {
  const { gift, first } = target;
  if (gift.status === 'ended') throw new ProviderError('stripe', 'ce don mensuel est déjà arrêté');
  const stripe = stripeOf(deps);
  let answer: Stripe.Subscription;
  if (change.kind === 'amount') {
    if (!Number.isInteger(change.amountMinor) || change.amountMinor < MONTHLY_MIN_CENTS || change.amountMinor > MONTHLY_MAX_CENTS) throw new RangeError('amount');
    const current = await ask(() => stripe.subscriptions.retrieve(gift.id));
    const item = itemOf(current);
    const product = productOf(current);
    if (!item || !product) throw new ProviderError('stripe', 'abonnement sans article');
    // The new price applies from the next instalment: no proration, nothing charged now.
    answer = await ask(() =>
      stripe.subscriptions.update(
        gift.id,
        { items: [{ id: item.id, price_data: { currency: 'eur', product, unit_amount: change.amountMinor, recurring: { interval: 'month' } } }], proration_behavior: 'none' },
        { idempotencyKey: `gift-${gift.id}-amount-${change.amountMinor}-${randomUUID()}` },
      ),
    );
  } else if (change.kind === 'paused') {
    answer = await ask(() => stripe.subscriptions.update(gift.id, { pause_collection: { behavior: 'void' } }));
  } else if (change.kind === 'resumed') {
    answer = await ask(() => stripe.subscriptions.update(gift.id, { pause_collection: '' }));
  } else {
    answer = await ask(() => stripe.subscriptions.cancel(gift.id));
  }
  const state = stateOf(answer);
  const confirmed =
    answer.id === gift.id &&
    (change.kind === 'amount'
      ? state.amountMinor === change.amountMinor && state.currency === 'EUR'
      : change.kind === 'paused'
        ? state.status === 'paused'
        : change.kind === 'resumed'
          ? state.status !== 'paused' && state.status !== 'ended'
          : state.status === 'ended');
  if (!confirmed) {
    log.warn('Stripe did not confirm a monthly gift change', { gift: gift.id, change: change.kind, status: answer.status });
    throw new ProviderError('stripe', 'réponse inattendue de Stripe');
  }
  const now = new Date().toISOString();
  const amountMinor = state.amountMinor ?? gift.amount_minor;
  const updated = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('monthly_gifts')
      .set({ status: state.status, amount_minor: amountMinor, updated_at: now })
      .where('id', '=', gift.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('monthly_gift_events')
      .values({ id: randomUUID(), gift_id: gift.id, kind: change.kind, amount_minor: amountMinor, previous_amount_minor: gift.amount_minor, source: by.source, provider_ref: null, at: now })
      .execute();
    await audit(trx, by.actor, `monthly_gift.${change.kind}`, `${toDecimalString(amountMinor, gift.currency)} ${gift.currency} / mois (${gift.id})`, { gift: gift.id, previous: gift.amount_minor, amount: amountMinor });
    return row;
  });
  const to = first.donor_email;
  if (to) {
    const lang = langOf(first.language);
    await sendDonorMail(deps, to, lang, 'donorMail.changeSubject', [CHANGE_MAIL[change.kind], 'donorMail.manage'], {
      amount: formatMoney(amountMinor, gift.currency, lang),
      url: spaceUrl(deps.publicUrl, lang),
    });
  }
  return updated;
}

/** A Stripe billing portal session where the donor updates their card; returns its address. */
export async function cardUpdateUrl(deps: DonationDeps, target: { gift: MonthlyGift; first: Donation }, by: { source: GiftSource; actor: Actor }): Promise<string> {
  const stripe = stripeOf(deps);
  const sub = await ask(() => stripe.subscriptions.retrieve(target.gift.id));
  const customer = typeof sub.customer === 'string' ? sub.customer : sub.customer?.id;
  if (!customer) throw new ProviderError('stripe', 'abonnement sans client');
  const lang = langOf(target.first.language);
  const portal = await ask(() => stripe.billingPortal.sessions.create({ customer, return_url: spaceUrl(returnOrigin(deps.publicUrl, 'stripe'), lang), locale: lang }));
  // Stripe types the url as a string; were it missing, test() reads "undefined"/"null" and refuses it too.
  if (portal.customer !== customer || !/^https?:\/\//.test(portal.url)) throw new ProviderError('stripe', 'réponse inattendue de Stripe');
  await deps.db
    .insertInto('monthly_gift_events')
    .values({ id: randomUUID(), gift_id: target.gift.id, kind: 'card', amount_minor: null, previous_amount_minor: null, source: by.source, provider_ref: null, at: new Date().toISOString() })
    .execute();
  await audit(deps.db, by.actor, 'monthly_gift.card', `carte d’un don mensuel (${target.gift.id})`, { gift: target.gift.id });
  return portal.url;
}

/* ---------------- Webhooks (Stripe's subscriptions capability, ADR 019) ---------------- */

type InvoiceLike = Stripe.Invoice & { subscription?: string | { id: string } | null };

/** What the Stripe provider hands over of a subscription's news. */
export const stripeSubscriptions: SubscriptionCapability = {
  async onWebhook(deps, { event }) {
    if (event.type === 'invoice.payment_failed') await recordFailedInstalment(deps, event.object as InvoiceLike);
    else await syncMonthlyGift(deps, event.object as Stripe.Subscription, event.id);
  },
};

/**
 * invoice.payment_failed: one failed row in the ledger per invoice (Stripe retries and re-sends the
 * event; the row's unique reference makes it once), the gift marked past due, and one mail to the
 * donor in their language with the way to update the card.
 */
export async function recordFailedInstalment(deps: DonationDeps, invoice: InvoiceLike): Promise<void> {
  const subId = subscriptionOfInvoice(invoice);
  if (!subId || !invoice.id) return;
  const first = await findBySecondaryRef(deps.db, 'stripe', subId);
  if (!first || invoice.currency?.toUpperCase() !== 'EUR') return;
  const ref = `${invoice.id}:failed`;
  const attempt = {
    provider: 'stripe' as const,
    providerRef: ref,
    secondaryRef: subId,
    amountMinor: invoice.amount_due,
    currency: 'EUR',
    eurCents: invoice.amount_due,
    frequency: 'monthly' as const,
    language: first.language,
    donorName: first.donor_name,
    donorEmail: first.donor_email ?? invoice.customer_email,
  };
  // The failed instalment is a move of the ledger like any other: published after its commit.
  const t = await publish(deps, await recordFromProvider(deps.db, attempt, 'failed', deps.receipts));
  // Set only when this call recorded the row: nothing more on a replayed event.
  const donation = t.donation;
  if (!donation) return;
  const gift = await ensureGift(deps.db, first);
  const now = new Date().toISOString();
  await deps.db.updateTable('monthly_gifts').set({ status: 'past_due', updated_at: now }).where('id', '=', gift.id).where('status', '!=', 'ended').execute();
  await deps.db
    .insertInto('monthly_gift_events')
    .values({ id: randomUUID(), gift_id: gift.id, kind: 'payment_failed', amount_minor: invoice.amount_due, previous_amount_minor: null, source: 'provider', provider_ref: ref, at: now })
    .execute();
  await audit(deps.db, { id: null, name: 'Paiement en ligne' }, 'monthly_gift.payment_failed', `${toDecimalString(invoice.amount_due, 'EUR')} EUR (${gift.id})`, { gift: gift.id, donation: donation.id });
  const to = donation.donor_email;
  if (to) {
    const lang = langOf(first.language);
    await sendDonorMail(deps, to, lang, 'donorMail.failedSubject', ['donorMail.failed', 'donorMail.failedAction'], {
      amount: formatMoney(invoice.amount_due, 'EUR', lang),
      url: spaceUrl(deps.publicUrl, lang),
    });
  }
}

/**
 * customer.subscription.updated / .deleted: the gift follows what Stripe says (changes made
 * elsewhere, the end). Events may arrive out of order, so the subscription is read again from
 * Stripe; the event's own copy serves only when Stripe cannot be asked.
 */
export async function syncMonthlyGift(deps: DonationDeps, event: Stripe.Subscription, eventId: string): Promise<void> {
  const first = await findBySecondaryRef(deps.db, 'stripe', event.id);
  if (!first) return;
  const gift = await ensureGift(deps.db, first);
  if (gift.status === 'ended') return;
  let sub = event;
  try {
    sub = await ask(() => stripeOf(deps).subscriptions.retrieve(event.id));
  } catch (e) {
    log.warn('subscription not re-read from Stripe; using the event', { gift: gift.id, error: e instanceof Error ? e.message : String(e) });
  }
  const state = stateOf(sub);
  const now = new Date().toISOString();
  await deps.db
    .updateTable('monthly_gifts')
    .set({
      status: state.status,
      ...(state.amountMinor !== null && state.currency === gift.currency ? { amount_minor: state.amountMinor } : {}),
      updated_at: now,
    })
    .where('id', '=', gift.id)
    .execute();
  if (state.status === 'ended') {
    await deps.db
      .insertInto('monthly_gift_events')
      .values({ id: randomUUID(), gift_id: gift.id, kind: 'ended', amount_minor: gift.amount_minor, previous_amount_minor: null, source: 'provider', provider_ref: `${eventId}:ended`, at: now })
      .onConflict((oc) => oc.column('provider_ref').doNothing())
      .execute();
    await audit(deps.db, { id: null, name: 'Paiement en ligne' }, 'monthly_gift.ended', `${toDecimalString(gift.amount_minor, gift.currency)} ${gift.currency} / mois (${gift.id})`, { gift: gift.id });
  }
}
