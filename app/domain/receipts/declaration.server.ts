/**
 * The 222 bis declaration read from the receipts register (ADR 035): a fiscal year's figures, and
 * whether an Admin marked it made (audited), which ends the dashboard's reminder. A receipt counts
 * in the fiscal year its gifts were received (`paid_at`, in Paris): an annual receipt issued in
 * January for the year before counts in that year, as a correction counts in its gift's year. The
 * fiscal year opens in the accounting settings' month (January: the calendar year); a year is
 * named by the calendar year it opens in, as the accounting export names it.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { fiscalYear, fiscalYearLabel, fiscalYearName, fiscalYearOf } from '~/domain/fiscal-year/fiscal-year';
import { fiscalStartMonth } from '~/domain/fiscal-year/start-month.server';
import { parisDay, parisDayStart } from '~/lib/paris';
import { declarationFigures, type DeclarationFigures, type DeclarationRow } from './declaration';
import { declarationDeadline, reminderDue } from './declaration-deadline';

/** Every receipt (valid or cancelled) of gifts received in the fiscal year `year` (opening in `startMonth`), as the declaration reads them. */
export async function declarationRows(db: DB, year: number, startMonth: number): Promise<DeclarationRow[]> {
  return db
    .selectFrom('receipts')
    .select(['status', 'regime', 'nature', 'amount_cents'])
    .where('paid_at', '>=', parisDayStart(fiscalYear(startMonth, year).first))
    .where('paid_at', '<', parisDayStart(fiscalYear(startMonth, year + 1).first))
    .execute();
}

export interface Declaration {
  /** The fiscal year, named by the calendar year it opens in. */
  year: number;
  /** The fiscal year's first month (1: the calendar year). */
  startMonth: number;
  /** "2025", or "Exercice 2025-2026 (1er juillet 2025 – 30 juin 2026)". */
  label: string;
  figures: DeclarationFigures;
  /** The last day to declare (AAAA-MM-JJ). */
  deadline: string;
  /** When and by whom it was marked made; null while it is not. */
  done: { at: string; by: string } | null;
}

export async function declarationOf(db: DB, year: number, startMonth?: number): Promise<Declaration> {
  const month = startMonth ?? (await fiscalStartMonth(db));
  const done = await db.selectFrom('receipt_declarations').selectAll().where('year', '=', year).executeTakeFirst();
  return {
    year,
    startMonth: month,
    label: fiscalYearLabel(month, year),
    figures: declarationFigures(await declarationRows(db, year, month)),
    deadline: declarationDeadline(year, month),
    done: done ? { at: done.done_at, by: done.done_by } : null,
  };
}

/** The fiscal year `now` is in (Paris), by the year it opens in: the years before it are closed, and may be declared. */
export async function currentFiscalYear(db: DB, now = new Date()): Promise<{ year: number; startMonth: number }> {
  const startMonth = await fiscalStartMonth(db);
  return { year: fiscalYearOf(startMonth, parisDay(now)), startMonth };
}

/** An Admin marks the year's declaration made: recorded once (a second click changes nothing), audited. */
export async function markDeclared(db: DB, actor: Actor, year: number, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('receipt_declarations')
      .values({ year, done_at: now.toISOString(), done_by: actor.name })
      .onConflict((oc) => oc.column('year').doNothing())
      .returning('year')
      .executeTakeFirst();
    if (!row) return false;
    await audit(trx, actor, 'receipts.declaration', `Déclaration des dons ${year} (article 222 bis)`, { year });
    return true;
  });
}

export interface DeclarationReminder {
  year: number;
  /** How the sentence names it: "2025", or "de l’exercice 2025-2026". */
  period: string;
  deadline: string;
  overdue: boolean;
  receipts: number;
}

/**
 * The dashboard's reminder: the last closed fiscal year's declaration, from six weeks before its
 * deadline until it is marked made (overdue too), when that year has valid receipts (none issued,
 * nothing to declare).
 */
export async function declarationReminder(db: DB, now = new Date()): Promise<DeclarationReminder | null> {
  const { year: current, startMonth } = await currentFiscalYear(db, now);
  const year = current - 1;
  const today = parisDay(now);
  if (!reminderDue(year, today, startMonth)) return null;
  const d = await declarationOf(db, year, startMonth);
  if (d.done || d.figures.total.count === 0) return null;
  return { year, period: startMonth === 1 ? String(year) : `de l’exercice ${fiscalYearName(startMonth, year)}`, deadline: d.deadline, overdue: today > d.deadline, receipts: d.figures.total.count };
}
