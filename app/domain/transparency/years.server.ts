/**
 * The years of "where the money goes" (ADR 032): read, saved (audited, guarded by their version),
 * published; and the live totals of a year from the donations ledger.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { localized, type Lang } from '~/lib/i18n';
import { parisDay } from '~/lib/paris';
import { moneyByPurpose } from '~/domain/reports/reports.server';
import { readFigures, yearTotals, type YearFigures, type YearInput } from './figures';

export interface StoredYear {
  year: number;
  figures: YearFigures;
  published: boolean;
  /** 0: never saved. */
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The foundation's current year (Paris). */
export const currentYear = (now = new Date()): number => Number(parisDay(now).slice(0, 4));

/** A year is closed (its accounts can be final) once it has ended; the current one is still running. */
export const isClosed = (year: number, now = new Date()): boolean => year < currentYear(now);

export async function getYear(db: DB, year: number): Promise<StoredYear> {
  const row = await db.selectFrom('transparency_years').selectAll().where('year', '=', year).executeTakeFirst();
  if (!row) return { year, figures: readFigures('{}'), published: false, version: 0, updatedAt: null, updatedBy: null };
  return { year, figures: readFigures(row.figures), published: row.published === 1, version: row.version, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/** Every year saved, newest first, with whether it is published. */
export async function listYears(db: DB): Promise<{ year: number; published: boolean; updatedAt: string }[]> {
  const rows = await db.selectFrom('transparency_years').select(['year', 'published', 'updated_at']).orderBy('year', 'desc').execute();
  return rows.map((r) => ({ year: Number(r.year), published: r.published === 1, updatedAt: r.updated_at }));
}

/** The published years, newest first. */
export async function publishedYears(db: DB): Promise<number[]> {
  const rows = await db.selectFrom('transparency_years').select('year').where('published', '=', 1).orderBy('year', 'desc').execute();
  return rows.map((r) => Number(r.year));
}

/**
 * Saves a year if nobody saved it since `version` was read (0: its first save), with its audit line,
 * in one transaction. 'conflict' writes nothing.
 */
export async function saveYear(db: DB, actor: Actor, year: number, input: YearInput, version: number, now = new Date()): Promise<'ok' | 'conflict'> {
  const figures = JSON.stringify(input.figures);
  const published = input.published ? 1 : 0;
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let done: boolean;
    if (version === 0) {
      const r = await trx.insertInto('transparency_years').values({ year, figures, published, version: 1, updated_at: at, updated_by: actor.name }).onConflict((oc) => oc.column('year').doNothing()).executeTakeFirst();
      done = Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    } else {
      const r = await trx.updateTable('transparency_years').set({ figures, published, version: version + 1, updated_at: at, updated_by: actor.name }).where('year', '=', year).where('version', '=', version).executeTakeFirst();
      done = Number(r.numUpdatedRows) === 1;
    }
    if (!done) return 'conflict';
    const t = yearTotals(input.figures);
    await audit(trx, actor, 'transparency.year', `Où va l’argent ${year}`, { published: input.published, resourcesCents: t.resourcesCents, usesCents: t.usesCents });
    return 'ok';
  });
}

export interface LiveTotals {
  giftsCents: number;
  duesCents: number;
  /** When they were read (ISO). */
  asOf: string;
}

/**
 * Gifts and dues the ledger counts in a calendar year, as the reports do (ADR 016, `moneyByPurpose`):
 * status succeeded (a refunded payment leaves it), at their euro value, dated by `succeeded_at`
 * (UTC); money only (gifts in kind apart, ADR 030).
 */
export async function liveTotals(db: DB, year: number, now = new Date()): Promise<LiveTotals> {
  const cents = await moneyByPurpose(db, `${year}-01-01T00:00:00.000Z`, `${year + 1}-01-01T00:00:00.000Z`);
  return { giftsCents: cents.gift, duesCents: cents.dues, asOf: now.toISOString() };
}

/** The site's projects, id → French title (the form's choices). */
export async function projectChoices(db: DB): Promise<Map<string, string>> {
  const rows = await db.selectFrom('projects').select(['id', 'translations']).orderBy('date', 'desc').execute();
  return new Map(rows.map((r) => [r.id, localized(JSON.parse(r.translations) as Record<Lang, { title?: string }>, 'fr', 'title')]));
}

/**
 * A published year as the public page shows it in one language: a mission naming a project shows
 * that project's title in the language (its saved label if the project is gone). Undefined when the
 * year is not published.
 */
export async function publicYear(db: DB, year: number, lang: Lang): Promise<YearFigures | undefined> {
  const stored = await getYear(db, year);
  if (!stored.published) return undefined;
  const ids = stored.figures.missions.flatMap((m) => (m.projectId ? [m.projectId] : []));
  const projects = ids.length === 0 ? [] : await db.selectFrom('projects').select(['id', 'translations']).where('id', 'in', ids).execute();
  const titles = new Map(projects.map((p) => [p.id, localized(JSON.parse(p.translations) as Record<Lang, { title?: string }>, lang, 'title')]));
  return { ...stored.figures, missions: stored.figures.missions.map((m) => ({ ...m, label: (m.projectId && titles.get(m.projectId)) || m.label })) };
}
