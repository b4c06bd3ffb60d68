/**
 * A membership's dues (ADR 021): what the payment pipeline's subscriber calls once a payment of
 * purpose 'dues' is verified, and once one is refunded or cancelled. Both are idempotent on the
 * payment id, so a replayed event changes nothing; both recompute the periods of the whole
 * history from the payments alone (period.ts), under a per-membership lock.
 *
 * This module never writes the `donations` table and never talks to a provider: the pipeline
 * owns the payment, this area owns what it pays for.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { lockFor } from '~db/helpers';
import { coverage, endOfCoverage, type Period } from './period';
import { getMembershipSettings } from './settings.server';
import { getType } from './types.server';

export class MembershipNotFoundError extends Error {
  constructor(id: string) {
    super(`No membership ${id}`);
    this.name = 'MembershipNotFoundError';
  }
}

export interface DuesPayment {
  membershipId: string;
  /** The pipeline's payment id (unique across its payments). */
  paymentId: string;
  amountCents: number;
  /** The instant the provider's verified answer dates the payment (ISO). */
  paidAt: string;
  /** How it was paid ('card', 'paypal', 'mobile_money', 'crypto', 'cash', 'cheque', 'transfer'). */
  method: string;
  /** The Admin who recorded a payment received by hand; absent for one paid online. */
  recordedBy?: string | null;
}

export type ApplyResult = { status: 'applied'; period: Period; endsOn: string } | { status: 'replayed' };

/**
 * Records a verified dues payment and extends the membership: the period it pays for follows the
 * current end when paid early or in grace, and starts from the payment after a lapse. A payment
 * id already recorded changes nothing ('replayed'). Throws for an unknown membership or an amount
 * that is not a whole number of cents; nothing is written then.
 */
export async function applyDuesPayment(db: DB, payment: DuesPayment): Promise<ApplyResult> {
  if (!Number.isSafeInteger(payment.amountCents) || payment.amountCents < 0) throw new RangeError(`Invalid dues amount ${payment.amountCents}`);
  const paidAt = new Date(payment.paidAt).toISOString();
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, `membership:${payment.membershipId}`);
    // Written first, read after: on a SQLite file shared by processes, a transaction whose first
    // statement writes waits for the lock; one that reads first cannot. Unknown member: rolled back.
    const id = randomUUID();
    const inserted = await trx
      .insertInto('membership_dues')
      .values({
        id,
        membership_id: payment.membershipId,
        payment_id: payment.paymentId,
        method: payment.method,
        amount_cents: payment.amountCents,
        paid_at: paidAt,
        period_start: null,
        period_end: null,
        status: 'paid',
        revoked_at: null,
        recorded_by: payment.recordedBy ?? null,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('payment_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return { status: 'replayed' as const };
    const member = await trx.selectFrom('memberships').select('id').where('id', '=', payment.membershipId).executeTakeFirst();
    if (!member) throw new MembershipNotFoundError(payment.membershipId);
    const periods = await recompute(trx, payment.membershipId);
    const period = periods.get(id);
    // Stryker disable next-line ConditionalExpression,BlockStatement: a paid row always gets a period; kept as the invariant it states
    if (!period) throw new Error('A paid dues row got no period');
    return { status: 'applied' as const, period, endsOn: (await endsOnOf(trx, payment.membershipId)) as string };
  });
}

export type RevokeResult = { status: 'revoked'; membershipId: string; endsOn: string | null } | { status: 'unchanged' };

/**
 * A dues payment refunded or cancelled by the pipeline: it stops counting, and the periods of the
 * payments after it are recomputed (its year is given back). Unknown or already revoked: nothing
 * changes.
 */
export async function revokeDuesPayment(db: DB, input: { paymentId: string; at: string; reason: 'refunded' | 'cancelled' }): Promise<RevokeResult> {
  return db.transaction().execute(async (trx) => {
    // Written first (see applyDuesPayment); the conditional update makes a replay change nothing.
    const row = await trx
      .updateTable('membership_dues')
      .set({ status: input.reason, revoked_at: new Date(input.at).toISOString() })
      .where('payment_id', '=', input.paymentId)
      .where('status', '=', 'paid')
      .returning('membership_id')
      .executeTakeFirst();
    if (!row) return { status: 'unchanged' as const };
    await lockFor(trx, `membership:${row.membership_id}`);
    await recompute(trx, row.membership_id);
    return { status: 'revoked' as const, membershipId: row.membership_id, endsOn: await endsOnOf(trx, row.membership_id) };
  });
}

async function endsOnOf(trx: DB, membershipId: string): Promise<string | null> {
  const m = await trx.selectFrom('memberships').select('ends_on').where('id', '=', membershipId).executeTakeFirstOrThrow();
  return m.ends_on;
}

/**
 * Recomputes every period of a membership's history with its type's rule and the grace days, and
 * the membership's end. Returns each dues row's period by id. Run inside the caller's transaction.
 */
export async function recompute(trx: DB, membershipId: string): Promise<Map<string, Period>> {
  const m = await trx.selectFrom('memberships').select('type_id').where('id', '=', membershipId).executeTakeFirstOrThrow();
  const type = await getType(trx, m.type_id);
  if (!type) throw new Error(`Membership ${membershipId} has an unknown type ${m.type_id}`);
  const { graceDays } = await getMembershipSettings(trx);
  const dues = await trx.selectFrom('membership_dues').select(['id', 'paid_at', 'status', 'period_start', 'period_end']).where('membership_id', '=', membershipId).orderBy('created_at').execute();
  const periods = coverage(type.rule, dues.map((d) => ({ paidAt: d.paid_at, counts: d.status === 'paid' })), graceDays);
  const byId = new Map<string, Period>();
  for (const [i, d] of dues.entries()) {
    const p = periods[i];
    if (p) byId.set(d.id, p);
    if ((p?.start ?? null) === d.period_start && (p?.end ?? null) === d.period_end) continue;
    await trx
      .updateTable('membership_dues')
      .set({ period_start: p?.start ?? null, period_end: p?.end ?? null })
      .where('id', '=', d.id)
      .execute();
  }
  await trx.updateTable('memberships').set({ ends_on: endOfCoverage(periods), updated_at: new Date().toISOString() }).where('id', '=', membershipId).execute();
  return byId;
}
