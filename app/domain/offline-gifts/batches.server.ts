/**
 * Deposits of cheques at the bank (ADR 028): a batch is opened, its cheques are typed
 * (gifts.server.ts), it is deposited — the deposit slip prints it (slip-pdf.server.ts) — and then
 * reconciled when the bank's statement shows the credit. Numbered 1, 2, 3… The figures and the
 * allowed moves are totals.ts's; every move is audited.
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { GiftBatchTable } from '~db/schema';
import { isUniqueViolation, lockFor } from '~db/helpers';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { formatMoney } from '~/lib/currency';
import { batchTotals, checkDeposit, checkReconciliation, type BatchStatus, type BatchTotals } from './totals';

export type GiftBatch = GiftBatchTable & { status: BatchStatus };

/** The advisory lock (PostgreSQL) a batch's deposit and the cheques typed into it take in turn. */
export const batchLock = (id: string) => `gift-batch:${id}`;

/** Opens a new batch, numbered after the last one (a number taken at the same time by another is retried). */
export async function openBatch(db: DB, actor: Actor, day: string): Promise<GiftBatch> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const last = await trx.selectFrom('gift_batches').select((eb) => eb.fn.max('number').as('n')).executeTakeFirst();
        const now = new Date().toISOString();
        const row: GiftBatch = { id: randomUUID(), number: Number(last?.n ?? 0) + 1, status: 'open', opened_on: day, opened_by: actor.name, deposited_on: null, deposited_by: null, reconciled_on: null, reconciled_by: null, credited_cents: null, created_at: now };
        await trx.insertInto('gift_batches').values(row).execute();
        await audit(trx, actor, 'gift-batch.opened', `Remise n° ${row.number}`, { batch: row.id });
        return row;
      });
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}

export async function getBatch(db: DB, id: string): Promise<GiftBatch | undefined> {
  return (await db.selectFrom('gift_batches').selectAll().where('id', '=', id).executeTakeFirst()) as GiftBatch | undefined;
}

/** The amounts and statuses of a batch's cheques, as its totals count them. */
async function linesOf(db: DB, id: string) {
  const rows = await db.selectFrom('offline_gifts as o').innerJoin('donations as d', 'd.id', 'o.payment_id').select(['d.amount_minor', 'd.status']).where('o.batch_id', '=', id).execute();
  return rows.map((r) => ({ amountCents: r.amount_minor, status: r.status }));
}

export async function totalsOf(db: DB, id: string): Promise<BatchTotals> {
  return batchTotals(await linesOf(db, id));
}

/** Every batch, newest first, with its count and total. */
export async function listBatches(db: DB, limit = 100): Promise<(GiftBatch & BatchTotals)[]> {
  const batches = (await db.selectFrom('gift_batches').selectAll().orderBy('number', 'desc').limit(limit).execute()) as GiftBatch[];
  const ids = batches.map((b) => b.id);
  const rows = ids.length ? await db.selectFrom('offline_gifts as o').innerJoin('donations as d', 'd.id', 'o.payment_id').select(['o.batch_id', 'd.amount_minor', 'd.status']).where('o.batch_id', 'in', ids).execute() : [];
  return batches.map((b) => ({ ...b, ...batchTotals(rows.filter((r) => r.batch_id === b.id).map((r) => ({ amountCents: r.amount_minor, status: r.status }))) }));
}

export type BatchMove = { ok: true } | { ok: false; message: string };

/** Marks a batch deposited at the bank on `day`: no cheque can be added to it after. */
export async function depositBatch(db: DB, actor: Actor, id: string, day: string): Promise<BatchMove> {
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, batchLock(id));
    const batch = await getBatch(trx, id);
    if (!batch) return { ok: false, message: 'Remise introuvable.' };
    const totals = batchTotals(await linesOf(trx, id));
    const check = checkDeposit(batch.status, totals);
    if (!check.ok) return check;
    const moved = await trx.updateTable('gift_batches').set({ status: 'deposited', deposited_on: day, deposited_by: actor.name }).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { ok: false, message: 'Cette remise a déjà été déposée.' };
    await audit(trx, actor, 'gift-batch.deposited', `Remise n° ${batch.number}`, { batch: id, day, count: totals.count, totalCents: totals.totalCents });
    return { ok: true };
  });
}

/** Reconciles a deposited batch with the bank's statement: the credited amount must be its total. */
export async function reconcileBatch(db: DB, actor: Actor, id: string, creditedCents: number, day: string): Promise<BatchMove> {
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, batchLock(id));
    const batch = await getBatch(trx, id);
    if (!batch) return { ok: false, message: 'Remise introuvable.' };
    const totals = batchTotals(await linesOf(trx, id));
    const check = checkReconciliation(batch.status, totals, creditedCents, (c) => formatMoney(c, 'EUR'));
    if (!check.ok) return check;
    const moved = await trx.updateTable('gift_batches').set({ status: 'reconciled', reconciled_on: day, reconciled_by: actor.name, credited_cents: creditedCents }).where('id', '=', id).where('status', '=', 'deposited').executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { ok: false, message: 'Cette remise est déjà rapprochée.' };
    await audit(trx, actor, 'gift-batch.reconciled', `Remise n° ${batch.number}`, { batch: id, day, creditedCents });
    return { ok: true };
  });
}
