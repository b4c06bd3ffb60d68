import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { MonthlyGiftTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { MessageKey } from '~/lib/i18n';
import type { DonationDeps } from './context.server';
import { langOf, sendDonorMail, spaceUrl } from './donor-mail.server';
import { publish } from './events.server';
import { findBySecondaryRef, recordFromProvider, type Donation } from './ledger.server';
import { formatMoney, toDecimalString } from '~/lib/currency';
import { instrumentOf, type ProviderName } from './status';

/**
 * The register of monthly gifts (ADR 013), whatever provider charges them: the gifts a donor sees,
 * each change recorded (monthly_gifts + monthly_gift_events + audit log) and confirmed by mail once
 * the provider's answer shows it, a failed instalment, the gift following the provider's word.
 * Asking the provider is the provider's subscriptions capability (providers/, e.g. Stripe's
 * stripe-subscriptions.server.ts); a donor's own changes go through donor-gifts.server.ts.
 */
export type MonthlyGift = MonthlyGiftTable;
export type GiftStatus = 'active' | 'paused' | 'past_due' | 'ended';
export type GiftSource = 'donor' | 'admin' | 'provider';
export type GiftChange = { kind: 'amount'; amountMinor: number } | { kind: 'paused' } | { kind: 'resumed' } | { kind: 'stopped' };

/** A subscription as its provider describes it, in our words. */
export interface SubscriptionState {
  status: GiftStatus;
  amountMinor: number | null;
  currency: string | null;
}

/** What a donor's monthly gift looks like on their page. */
export interface MonthlyGiftView {
  id: string;
  /** The provider that charges it (the ledger's `provider` of its first gift). */
  provider: string;
  amountMinor: number;
  currency: string;
  status: GiftStatus;
  startedAt: string;
  /** What it is paid with, as its first gift was (ADR 029): a SEPA debit's account and mandate, shown to the donor. */
  method: string | null;
  accountLast4: string | null;
  mandateRef: string | null;
  mandateSignedAt: string | null;
}

/** Amounts a donor may choose for a monthly gift, in cents. */
export const MONTHLY_MIN_CENTS = 100;
export const MONTHLY_MAX_CENTS = 1_000_000;

const sameEmail = (email: string) => (eb: any) => eb(eb.fn('lower', ['donor_email']), '=', email);
const ONLINE = { id: null, name: 'Paiement en ligne' };

/** The gift's row, created from its first donation the first time it is needed. */
export async function ensureGift(db: DB, first: Donation): Promise<MonthlyGift> {
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
    .where('frequency', '=', 'monthly')
    // A SEPA gift's first debit on its way, or failed (its donor updates the account here): ADR 029.
    // A subscription adopted as it ran at the provider (ADR 037): its row starts the gift, nothing paid.
    .where('status', 'in', ['succeeded', 'refunded', 'processing', 'failed', 'adopted'])
    .where('secondary_ref', 'is not', null)
    .orderBy('created_at')
    .execute();
  const seen = new Map<string, Donation>();
  for (const d of firsts) if (!seen.has(d.secondary_ref!)) seen.set(d.secondary_ref!, d);
  const views: MonthlyGiftView[] = [];
  for (const first of seen.values()) {
    // A renewal row can carry the email too; only the checkout's own row starts a gift.
    const origin = await findBySecondaryRef(db, first.provider as ProviderName, first.secondary_ref!);
    if (!origin || origin.id !== first.id) continue;
    const g = await ensureGift(db, first);
    views.push({
      id: g.id,
      provider: g.provider,
      amountMinor: g.amount_minor,
      currency: g.currency,
      status: g.status as GiftStatus,
      startedAt: first.created_at,
      method: first.method,
      accountLast4: first.account_last4,
      mandateRef: first.mandate_ref,
      mandateSignedAt: first.mandate_signed_at,
    });
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

const CHANGE_MAIL: Record<GiftChange['kind'], MessageKey> = {
  amount: 'donorMail.amountChanged',
  paused: 'donorMail.paused',
  resumed: 'donorMail.resumed',
  stopped: 'donorMail.stopped',
};

/** Whether a provider's answer (the subscription `id`, its state) shows the change asked. */
export function changeShown(change: GiftChange, giftId: string, answer: { id: string; state: SubscriptionState }): boolean {
  const { state } = answer;
  return (
    answer.id === giftId &&
    (change.kind === 'amount'
      ? state.amountMinor === change.amountMinor && state.currency === 'EUR'
      : change.kind === 'paused'
        ? state.status === 'paused'
        : change.kind === 'resumed'
          ? state.status !== 'paused' && state.status !== 'ended'
          : state.status === 'ended')
  );
}

/** A change the provider has confirmed: recorded with its event and audit line, then told to the donor. */
export async function recordChange(deps: DonationDeps, target: { gift: MonthlyGift; first: Donation }, change: GiftChange, state: SubscriptionState, by: { source: GiftSource; actor: Actor }): Promise<MonthlyGift> {
  const { gift, first } = target;
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

/** The donor was sent to the provider's page to update their means of payment: recorded and audited. */
export async function recordPaymentUpdate(db: DB, gift: MonthlyGift, by: { source: GiftSource; actor: Actor }): Promise<void> {
  await db
    .insertInto('monthly_gift_events')
    .values({ id: randomUUID(), gift_id: gift.id, kind: 'card', amount_minor: null, previous_amount_minor: null, source: by.source, provider_ref: null, at: new Date().toISOString() })
    .execute();
  await audit(db, by.actor, 'monthly_gift.card', `carte d’un don mensuel (${gift.id})`, { gift: gift.id });
}

/** An instalment the provider could not charge, as it reports it. */
export interface FailedInstalment {
  /** The provider's reference of the failure (unique: a replay records nothing more). */
  ref: string;
  amountMinor: number;
  /** The payer's email as the provider knows it, when the first gift has none. */
  email?: string | null;
}

/**
 * A failed instalment of the gift `first` started: one failed row in the ledger per reference
 * (published after its commit like any move), the gift marked past due, and one mail to the donor
 * in their language with the way to update their means of payment. A replay changes nothing.
 */
export async function recordFailedInstalment(deps: DonationDeps, first: Donation, failed: FailedInstalment): Promise<void> {
  const subId = first.secondary_ref!;
  const attempt = {
    provider: first.provider as ProviderName,
    providerRef: failed.ref,
    secondaryRef: subId,
    amountMinor: failed.amountMinor,
    currency: 'EUR',
    eurCents: failed.amountMinor,
    frequency: 'monthly' as const,
    language: first.language,
    donorName: first.donor_name,
    donorEmail: first.donor_email ?? failed.email,
    instrument: instrumentOf(first),
  };
  const t = await publish(deps, await recordFromProvider(deps.db, attempt, 'failed', deps.receipts));
  // Set only when this call recorded the row: nothing more on a replayed event.
  const donation = t.donation;
  if (!donation) return;
  const gift = await ensureGift(deps.db, first);
  const now = new Date().toISOString();
  await deps.db.updateTable('monthly_gifts').set({ status: 'past_due', updated_at: now }).where('id', '=', gift.id).where('status', '!=', 'ended').execute();
  await deps.db
    .insertInto('monthly_gift_events')
    .values({ id: randomUUID(), gift_id: gift.id, kind: 'payment_failed', amount_minor: failed.amountMinor, previous_amount_minor: null, source: 'provider', provider_ref: failed.ref, at: now })
    .execute();
  await audit(deps.db, ONLINE, 'monthly_gift.payment_failed', `${toDecimalString(failed.amountMinor, 'EUR')} EUR (${gift.id})`, { gift: gift.id, donation: donation.id });
  const to = donation.donor_email;
  if (to) {
    const lang = langOf(first.language);
    // A debit's donor updates an account, a card's donor a card (ADR 029).
    await sendDonorMail(deps, to, lang, 'donorMail.failedSubject', ['donorMail.failed', first.method === 'sepa_debit' ? 'donorMail.debitUpdateAccount' : 'donorMail.failedAction'], {
      amount: formatMoney(failed.amountMinor, 'EUR', lang),
      url: spaceUrl(deps.publicUrl, lang),
    });
  }
}

/** The first debit of the gift `first` started failed (ADR 029): the gift is past due until the donor's new account is debited. */
export async function giftPastDue(db: DB, first: Donation): Promise<void> {
  if (!first.secondary_ref) return;
  const gift = await ensureGift(db, first);
  await db.updateTable('monthly_gifts').set({ status: 'past_due', updated_at: new Date().toISOString() }).where('id', '=', gift.id).where('status', '!=', 'ended').execute();
}

/**
 * The gift follows what its provider says (changes made elsewhere, the end): `read` gives the
 * subscription's state as the provider has it now; `eventRef` keys the end's event, so a replay
 * records it once. An ended gift stays ended.
 */
export async function followSubscription(deps: DonationDeps, first: Donation, read: () => Promise<SubscriptionState>, eventRef: string): Promise<void> {
  const gift = await ensureGift(deps.db, first);
  if (gift.status === 'ended') return;
  const state = await read();
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
      .values({ id: randomUUID(), gift_id: gift.id, kind: 'ended', amount_minor: gift.amount_minor, previous_amount_minor: null, source: 'provider', provider_ref: `${eventRef}:ended`, at: now })
      .onConflict((oc) => oc.column('provider_ref').doNothing())
      .execute();
    await audit(deps.db, ONLINE, 'monthly_gift.ended', `${toDecimalString(gift.amount_minor, gift.currency)} ${gift.currency} / mois (${gift.id})`, { gift: gift.id });
  }
}
