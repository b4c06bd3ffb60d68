/**
 * Where the money goes (issue 42, ADR 032): a year's figures as an Admin types them from the
 * approved accounts, their form's Zod schema (French messages per field) and the sums and shares
 * the public page and the PDF show. Shared with the browser: no server imports.
 */
import { z } from 'zod';

/** Euro cents typed for a year: resources, then uses. */
export interface YearFigures {
  giftsCents: number;
  duesCents: number;
  /** Grants, legacies, other resources: each its label and amount. */
  otherResources: { label: string; cents: number }[];
  /** Social missions: a project of the site (its id; `label` is its French title when saved) or a free label. */
  missions: { projectId: string | null; label: string; cents: number }[];
  fundraisingCents: number;
  runningCents: number;
  /** A short comment per language (French shown where another is empty). */
  comment: { fr: string; en: string; es: string };
}

export const EMPTY_FIGURES: YearFigures = { giftsCents: 0, duesCents: 0, otherResources: [], missions: [], fundraisingCents: 0, runningCents: 0, comment: { fr: '', en: '', es: '' } };

/** The first year the form takes, and the largest amount of one line (a billion euros). */
export const FIRST_YEAR = 2000;
export const MAX_LINE_CENTS = 1_000_000_000_00;
/** Rows of each list the form shows beyond those filled in (blank rows are ignored). */
export const SPARE_ROWS = 3;
/** Lines of each list at most (the one-page summary keeps them on its page). */
export const MAX_OTHER_ROWS = 6;
export const MAX_MISSION_ROWS = 12;
export const COMMENT_MAX = 500;

const SPACE = '[ \\u00a0\\u202f]';
const AMOUNT = new RegExp(`^(?:[0-9]{1,3}(?:${SPACE}[0-9]{3})+|[0-9]+)(?:[.,][0-9]{1,2})?$`);

/**
 * An amount of the accounts in euros ("1 234 567,89", "0", "12.5") as cents. The donate page's
 * parser (donations/money.ts) stops at 100 000 € and refuses zero, which a year's accounts need:
 * the same written forms, any number of thousands groups, zero allowed, a billion at most.
 */
export function parseAccountAmount(input: string): number | null {
  const s = input.trim();
  if (!AMOUNT.test(s)) return null;
  const [whole, frac = ''] = s.replace(new RegExp(SPACE, 'g'), '').replace(',', '.').split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return cents <= MAX_LINE_CENTS ? cents : null;
}

/** Cents as the form shows them back: "1234,50", "0". */
export const centsForForm = (cents: number): string => (cents % 100 === 0 ? String(cents / 100) : `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`);

const AMOUNT_MESSAGE = 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.';
const amount = z.string({ message: 'Champ obligatoire.' }).trim().min(1, 'Champ obligatoire.').transform((v, ctx) => {
  const cents = parseAccountAmount(v);
  if (cents !== null) return cents;
  ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
  return z.NEVER;
});
const text = (max: number) => z.string().trim().max(max, `${max} caractères au plus.`).default('');

/** A row of a list: blank (ignored: null) or filled in, its amount then required (fields arrive trimmed). */
function rowAmount(row: { amount: string }, filled: boolean, ctx: z.RefinementCtx): number | null {
  if (!filled) return null;
  const cents = parseAccountAmount(row.amount);
  if (cents === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: row.amount === '' ? 'Le montant de cette ligne est obligatoire.' : AMOUNT_MESSAGE });
  return cents;
}

const otherRow = z.object({ label: text(120), amount: text(30) }).transform((row, ctx) => {
  const filled = row.label !== '' || row.amount !== '';
  if (filled && row.label === '') ctx.addIssue({ code: 'custom', path: ['label'], message: 'Nommez cette ressource (ex. Subventions, Legs).' });
  const cents = rowAmount(row, filled, ctx);
  return cents === null ? null : { label: row.label, cents };
});

const missionRow = (projects: ReadonlyMap<string, string>) =>
  z.object({ project: text(100), label: text(120), amount: text(30) }).transform((row, ctx) => {
    const filled = row.project !== '' || row.label !== '' || row.amount !== '';
    if (row.project !== '' && !projects.has(row.project)) ctx.addIssue({ code: 'custom', path: ['project'], message: 'Ce projet n’existe plus : choisissez-en un autre ou écrivez un libellé.' });
    else if (filled && row.project === '' && row.label === '') ctx.addIssue({ code: 'custom', path: ['label'], message: 'Choisissez un projet ou écrivez un libellé.' });
    const cents = rowAmount(row, filled, ctx);
    if (cents === null) return null;
    return row.project !== '' ? { projectId: row.project, label: row.label || (projects.get(row.project) ?? ''), cents } : { projectId: null, label: row.label, cents };
  });

const rows = <T extends z.ZodType>(row: T, max: number) => z.array(row).max(max, `${max} lignes au plus.`).default([]);

/**
 * The year's form, as `formRecord` gathers it. `projects`: the site's projects, id → French title
 * (a mission row names one of them, or a free label).
 */
export function yearFiguresSchema(projects: ReadonlyMap<string, string>) {
  return z
    .object({
      gifts: amount,
      dues: amount,
      otherResources: rows(otherRow, MAX_OTHER_ROWS),
      missions: rows(missionRow(projects), MAX_MISSION_ROWS),
      fundraising: amount,
      running: amount,
      commentFr: text(COMMENT_MAX),
      commentEn: text(COMMENT_MAX),
      commentEs: text(COMMENT_MAX),
      published: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
    })
    .transform((f) => ({
      figures: {
        giftsCents: f.gifts,
        duesCents: f.dues,
        otherResources: f.otherResources.filter((r) => r !== null),
        missions: f.missions.filter((r) => r !== null),
        fundraisingCents: f.fundraising,
        runningCents: f.running,
        comment: { fr: f.commentFr, en: f.commentEn, es: f.commentEs },
      } satisfies YearFigures,
      published: f.published,
    }));
}

export type YearInput = z.output<ReturnType<typeof yearFiguresSchema>>;

/** A flat form (`missions.0.amount`) as the schema reads it: lists of rows, in their order. */
export function formRecord(entries: Iterable<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const m = /^(otherResources|missions)\.(\d{1,2})\.(label|amount|project)$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const list = (out[m[1]] ??= []) as Record<string, string>[];
    (list[Number(m[2])] ??= {})[m[3]] = value;
  }
  for (const k of ['otherResources', 'missions']) if (Array.isArray(out[k])) out[k] = Array.from(out[k] as unknown[], (r) => r ?? {});
  return out;
}

/** A year's sums: resources and uses, and each part's share of its side (0 to 1; 0 when its side is 0). */
export function yearTotals(f: YearFigures) {
  const other = f.otherResources.reduce((s, r) => s + r.cents, 0);
  const missions = f.missions.reduce((s, r) => s + r.cents, 0);
  const resources = f.giftsCents + f.duesCents + other;
  const uses = missions + f.fundraisingCents + f.runningCents;
  const of = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return {
    resourcesCents: resources,
    usesCents: uses,
    otherCents: other,
    missionsCents: missions,
    missionsShare: of(missions, uses),
    fundraisingShare: of(f.fundraisingCents, uses),
    runningShare: of(f.runningCents, uses),
    publicShare: of(f.giftsCents, resources),
    share: of,
  };
}

/** The year's comment in a language, French where that one is empty. */
export const commentIn = (f: YearFigures, lang: keyof YearFigures['comment']): string => f.comment[lang].trim() || f.comment.fr.trim();

/** A stored document read back (a hand-edited row missing a part reads that part as empty). */
export function readFigures(json: string): YearFigures {
  let v: Partial<YearFigures> = {};
  try {
    v = JSON.parse(json) as Partial<YearFigures>;
  } catch {
    // An unreadable document reads as empty: the next save replaces it.
  }
  const cents = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0);
  return {
    giftsCents: cents(v.giftsCents),
    duesCents: cents(v.duesCents),
    otherResources: Array.isArray(v.otherResources) ? v.otherResources.map((r) => ({ label: String(r.label ?? ''), cents: cents(r.cents) })) : [],
    missions: Array.isArray(v.missions) ? v.missions.map((r) => ({ projectId: typeof r.projectId === 'string' ? r.projectId : null, label: String(r.label ?? ''), cents: cents(r.cents) })) : [],
    fundraisingCents: cents(v.fundraisingCents),
    runningCents: cents(v.runningCents),
    comment: { fr: String(v.comment?.fr ?? ''), en: String(v.comment?.en ?? ''), es: String(v.comment?.es ?? '') },
  };
}
