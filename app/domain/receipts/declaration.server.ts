/**
 * The 222 bis declaration read from the receipts register (ADR 035): a fiscal year's figures, and
 * whether an Admin marked it made (audited), which ends the dashboard's reminder. A receipt counts
 * in the year its gifts were received (`paid_at`, in Paris): an annual receipt issued in January
 * for the year before counts in that year, as a correction counts in its gift's year.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { parisDay, parisYear, parisYearStart } from '~/lib/paris';
import { declarationFigures, type DeclarationFigures, type DeclarationRow } from './declaration';
import { declarationDeadline, reminderDue } from './declaration-deadline';

/** Every receipt (valid or cancelled) of gifts received in `year`, as the declaration reads them. */
export async function declarationRows(db: DB, year: number): Promise<DeclarationRow[]> {
  return db
    .selectFrom('receipts')
    .select(['status', 'regime', 'nature', 'amount_cents'])
    .where('paid_at', '>=', parisYearStart(year))
    .where('paid_at', '<', parisYearStart(year + 1))
    .execute();
}

export interface Declaration {
  year: number;
  figures: DeclarationFigures;
  /** The last day to declare (AAAA-MM-JJ). */
  deadline: string;
  /** When and by whom it was marked made; null while it is not. */
  done: { at: string; by: string } | null;
}

export async function declarationOf(db: DB, year: number): Promise<Declaration> {
  const done = await db.selectFrom('receipt_declarations').selectAll().where('year', '=', year).executeTakeFirst();
  return { year, figures: declarationFigures(await declarationRows(db, year)), deadline: declarationDeadline(year), done: done ? { at: done.done_at, by: done.done_by } : null };
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
  deadline: string;
  overdue: boolean;
  receipts: number;
}

/**
 * The dashboard's reminder: last year's declaration, from six weeks before its deadline until it
 * is marked made (overdue too), when last year has valid receipts (none issued, nothing to declare).
 */
export async function declarationReminder(db: DB, now = new Date()): Promise<DeclarationReminder | null> {
  const year = parisYear(now) - 1;
  const today = parisDay(now);
  if (!reminderDue(year, today)) return null;
  const d = await declarationOf(db, year);
  if (d.done || d.figures.total.count === 0) return null;
  return { year, deadline: d.deadline, overdue: today > d.deadline, receipts: d.figures.total.count };
}
