/**
 * Dues through the one payment pipeline (ADR 019, ADR 021). `startDues` asks the pipeline's
 * `startPayment` for a payment of purpose 'dues' and records which membership it pays for
 * (`membership_payments`); `onDuesPayment`, registered in server/payment-subscribers.ts, reacts to
 * the verified events of purpose 'dues' only: a success applies the dues (period.ts decides the
 * period), a refund or cancellation revokes them. `recordManualDues` is the Admin's record of
 * dues received by hand: the ledger's `recordOffline`, then the same event. The ledger alone writes
 * the payment; this area writes the membership's side, idempotently on the payment id (a replay
 * changes nothing).
 */
import type { DB } from '~db/index';
import type { Actor } from '~/domain/audit/audit.server';
import type { DonationDeps } from '~/domain/donations/context.server';
import type { PaymentEvent } from '~/domain/donations/events.server';
import type { Donation } from '~/domain/donations/ledger.server';
import type { OfflineMeans } from '~/domain/donations/status';
import { recordOfflinePayment, startPayment, voidOfflinePayment } from '~/domain/donations/payments.server';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import type { Lang } from '~/lib/i18n';
import { meansOf, providerFor, type Means } from '~/domain/means/means';
import { log } from '~/lib/log.server';
import { applyDuesPayment, revokeDuesPayment, type ApplyResult, type RevokeResult } from './dues.server';
import { getType } from './types.server';

/**
 * The methods a member pays online with from a plain form (no script needed), each on its
 * provider's hosted page: card (Stripe Checkout), PayPal (its approval page), mobile money
 * (Flutterwave's hosted checkout) and crypto (CoinGate).
 */
export const DUES_MEANS = ['card', 'paypal', 'mobileMoney', 'crypto'] as const satisfies readonly Means[];
export type DuesMethod = (typeof DUES_MEANS)[number];
export const isDuesMethod = (v: string): v is DuesMethod => (DUES_MEANS as readonly string[]).includes(v);

/** The joining pages, where the payer comes back after the provider (never the gifts' /payment/… pages). */
export const DUES_RETURNS = { success: '/devenir-membre/merci', cancel: '/devenir-membre/annule' } as const;

export class DuesNotPayableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DuesNotPayableError';
  }
}

/** What a dues receipt names: the member, at the address they gave (the tax receipt's donor). */
function receiptDetailsOf(m: { first_name: string; last_name: string; address: string; postal_code: string; city: string; country: string }): TaxDetails {
  return { kind: 'individual', name: `${m.first_name} ${m.last_name}`, company: '', siren: '', address: m.address, postalCode: m.postal_code, city: m.city, country: m.country || 'France' };
}

export interface DuesStart {
  membershipId: string;
  method: DuesMethod;
  lang: Lang;
  kind: 'join' | 'renewal';
  /** The checkout's line ("Cotisation — Membre actif"), in the payer's language. */
  productName: string;
}

/**
 * Starts the payment of a membership's yearly dues: the amount is the type's (never the form's),
 * the tax details are the member's own when the type's dues open a reçu fiscal (the ledger then
 * numbers the receipt in the gifts' sequence), and the payment is linked to the membership before
 * the payer is sent on. A type without dues cannot be paid (an honorary type is an Admin's).
 */
export async function startDues(deps: DonationDeps, s: DuesStart): Promise<{ url: string; payment: Donation }> {
  const m = await deps.db.selectFrom('memberships').selectAll().where('id', '=', s.membershipId).executeTakeFirst();
  if (!m) throw new DuesNotPayableError(`No membership ${s.membershipId}`);
  const type = await getType(deps.db, m.type_id);
  if (!type || type.duesCents <= 0 || m.exempt === 1) throw new DuesNotPayableError(`Membership ${s.membershipId} has no dues to pay`);
  const started = await startPayment(deps, providerFor(s.method)!, {
    purpose: 'dues',
    amountCents: type.duesCents,
    monthly: false,
    lang: s.lang,
    donorName: `${m.first_name} ${m.last_name}`,
    donorEmail: m.email || null,
    donorPhone: m.phone || null,
    taxDetails: type.taxDeductible ? JSON.stringify(receiptDetailsOf(m)) : null,
    returns: DUES_RETURNS,
    productName: s.productName,
    hostedCheckout: true,
  });
  await linkPayment(deps.db, started.donation.id, m.id, s.kind);
  return { url: started.url!, payment: started.donation };
}

async function linkPayment(db: DB, paymentId: string, membershipId: string, kind: 'join' | 'renewal' | 'manual', recordedBy: string | null = null): Promise<void> {
  await db.insertInto('membership_payments').values({ payment_id: paymentId, membership_id: membershipId, kind, created_at: new Date().toISOString(), recorded_by: recordedBy }).execute();
}

/** The membership a dues payment pays for, if it is one. */
export async function membershipOfPayment(db: DB, paymentId: string): Promise<string | undefined> {
  return (await linkOf(db, paymentId))?.membership_id;
}

async function linkOf(db: DB, paymentId: string) {
  return db.selectFrom('membership_payments').select(['membership_id', 'recorded_by']).where('payment_id', '=', paymentId).executeTakeFirst();
}

export interface ManualDues {
  membershipId: string;
  /** The form's one-time token (a double submission records one payment). */
  token: string;
  means: OfflineMeans;
  amountCents: number;
  /** AAAA-MM-JJ. */
  receivedOn: string;
  reference: string;
  note: string;
}

/**
 * An Admin records dues received by hand (cash, cheque, transfer; issue 32 item 5). The ledger
 * records the payment as succeeded on the Admin's act, audited, with its link to the membership in
 * the same transaction; then the same `payment.succeeded` event as an online payment goes to the
 * subscribers, so the dues subscriber applies the period, mails the member their card and the
 * receipt numbered when the type is deductible: no second path. Answers whether this submission
 * recorded it (false: the same form was already recorded).
 */
export async function recordManualDues(deps: DonationDeps, actor: Actor, d: ManualDues): Promise<{ recorded: boolean; payment?: Donation }> {
  const m = await deps.db.selectFrom('memberships').selectAll().where('id', '=', d.membershipId).executeTakeFirst();
  if (!m) throw new DuesNotPayableError(`No membership ${d.membershipId}`);
  const type = await getType(deps.db, m.type_id);
  if (!type || type.duesCents <= 0 || m.exempt === 1) throw new DuesNotPayableError(`Membership ${d.membershipId} has no dues to pay`);
  const t = await recordOfflinePayment(
    deps,
    actor,
    {
      purpose: 'dues',
      means: d.means,
      token: d.token,
      receivedOn: d.receivedOn,
      reference: d.reference,
      note: d.note,
      amountMinor: d.amountCents,
      currency: 'EUR',
      eurCents: d.amountCents,
      frequency: 'once',
      language: m.language,
      donorName: `${m.first_name} ${m.last_name}`,
      donorEmail: m.email || null,
      taxDetails: type.taxDeductible ? JSON.stringify(receiptDetailsOf(m)) : null,
    },
    (trx, payment) => linkPayment(trx, payment.id, m.id, 'manual', actor.name),
  );
  return { recorded: t.changed, payment: t.donation };
}

/**
 * An Admin takes back dues they recorded by hand on this member's page (a mistyped amount, a
 * cheque that bounced), with a reason: the ledger cancels the payment and its receipt, audited,
 * and the same `payment.cancelled` event revokes the period it paid (the member's state follows).
 * Only a hand-recorded payment of this membership; false when there was nothing to take back.
 */
export async function voidManualDues(deps: DonationDeps, actor: Actor, membershipId: string, paymentId: string, reason: string): Promise<boolean> {
  const link = await linkOf(deps.db, paymentId);
  if (!link || link.membership_id !== membershipId || !link.recorded_by) return false;
  return (await voidOfflinePayment(deps, actor, paymentId, reason)).changed;
}

export type DuesOutcome = { membershipId: string; applied: ApplyResult } | { membershipId: string | null; revoked: RevokeResult } | null;

/**
 * The pipeline's subscriber for purpose 'dues' (server/payment-subscribers.ts): a verified success
 * applies the dues to the membership the payment was started for, a refund or a cancellation
 * revokes them. Any other purpose, or a failure, changes nothing. Answers what it did (tests).
 */
export async function onDuesPayment(deps: Pick<DonationDeps, 'db'>, e: PaymentEvent): Promise<DuesOutcome> {
  if (e.purpose !== 'dues') return null;
  const p = e.payment;
  if (e.type === 'payment.refunded' || e.type === 'payment.cancelled') {
    const revoked = await revokeDuesPayment(deps.db, { paymentId: p.id, at: p.updated_at, reason: e.type === 'payment.refunded' ? 'refunded' : 'cancelled' });
    return { membershipId: revoked.status === 'revoked' ? revoked.membershipId : null, revoked };
  }
  if (e.type !== 'payment.succeeded') return null;
  const link = await linkOf(deps.db, p.id);
  const membershipId = link?.membership_id;
  if (!membershipId) {
    log.error('dues payment names no membership', { donationId: p.id });
    return null;
  }
  const applied = await applyDuesPayment(deps.db, {
    membershipId,
    paymentId: p.id,
    // The ledger's verified amount in euros (the attempt's, which the provider's answer matched).
    amountCents: p.eur_cents ?? p.amount_minor,
    paidAt: p.succeeded_at ?? p.updated_at,
    // The dues history names the means (means.ts), never the provider.
    method: meansOf(p.provider, p.method) ?? p.provider,
    recordedBy: link.recorded_by,
  });
  return { membershipId, applied };
}
