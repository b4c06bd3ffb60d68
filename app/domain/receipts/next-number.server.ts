import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { parisYear } from '~/lib/paris';
import { receiptNumber } from './register.server';

/**
 * The next number of the current series (ADR 037): a foundation arriving with its receipts already
 * at n° 1 843 makes this site's next receipt n° 1 844 — forward only, never at or below a number
 * already issued (nor below one set before), audited. The series is the calendar year's
 * (receipt_counters, register.server.ts): setting the next number moves its counter to the number
 * before, in one transaction with the counter row locked, so a receipt issued meanwhile is never
 * given a number twice.
 */

/** Six digits, as the numbers print (RF-2026-001844). */
export const MAX_RECEIPT_SEQ = 999_999;

export interface SeriesState {
  year: number;
  /** The last number taken in the series (0: none yet). */
  last: number;
  next: number;
  /** The next receipt's number as it will print. */
  nextNumber: string;
}

export async function seriesState(db: DB, prefix: string, now = new Date()): Promise<SeriesState> {
  const year = parisYear(now.toISOString());
  const row = await db.selectFrom('receipt_counters').select('last').where('year', '=', year).executeTakeFirst();
  const last = Number(row?.last ?? 0);
  return { year, last, next: last + 1, nextNumber: receiptNumber(prefix, year, last + 1) };
}

export type NextNumberResult = { ok: true; changed: boolean; next: number } | { ok: false; error: string };

/** A typed number ("1844", "1 844", "n° 1844"): the integer, or null. */
export function readSequence(typed: string): number | null {
  const digits = typed.replace(/^\s*n°\s*/i, '').replace(/[\s\u00a0\u202f.]/g, '');
  if (!/^\d{1,7}$/.test(digits)) return null;
  const n = Number(digits);
  return n >= 1 && n <= MAX_RECEIPT_SEQ ? n : null;
}

/**
 * Sets the current series' next number to `typed`: refused when it is not a number from 1 to
 * 999 999, or not after the last number taken; the same as today's next changes nothing.
 */
export async function setNextReceiptNumber(db: DB, actor: Actor, typed: string, now = new Date()): Promise<NextNumberResult> {
  const next = readSequence(typed);
  if (next === null) return { ok: false, error: 'Un numéro entier de 1 à 999 999.' };
  const year = parisYear(now.toISOString());
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('receipt_counters').values({ year, last: 0 }).onConflict((oc) => oc.column('year').doNothing()).execute();
    // Locks the year's row (PostgreSQL) until the end: a receipt issued meanwhile waits, then takes the number after.
    const row = await trx.updateTable('receipt_counters').set((eb) => ({ last: eb('last', '+', 0) })).where('year', '=', year).returning('last').executeTakeFirstOrThrow();
    const last = Number(row.last);
    if (next <= last) return { ok: false as const, error: `Le n° ${next} est déjà passé : le dernier numéro de la série ${year} est le n° ${last}. Le prochain ne peut qu’avancer, à partir du n° ${last + 1}.` };
    if (next === last + 1) return { ok: true as const, changed: false, next };
    await trx.updateTable('receipt_counters').set({ last: next - 1 }).where('year', '=', year).execute();
    await audit(trx, actor, 'receipts.next_number', `Série ${year} : prochain reçu n° ${next}`, { year, from: last + 1, to: next });
    return { ok: true as const, changed: true, next };
  });
}
