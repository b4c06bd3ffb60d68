/**
 * Segments of the donors register (issue 44, ADR 040), pure and shared with the browser: a saved
 * filter is a name and rules on the figures (ADR 038), tags, campaign, means, language and consent.
 * The ready-made segments are rules too, some of them relative to the clock ("this year", "last
 * year"): who belongs is judged at read time from `now`, so on 1 January last year's donors who
 * have not given again become lapsed without anything being written.
 */
import { z } from 'zod';
import { LANGS } from '~/lib/i18n';
import { MEANS } from '~/domain/means/means';
import { issueErrors } from '~/lib/form-errors';

export const SEGMENT_NAME_MAX = 80;
/** The "Grands donateurs" threshold when the Admin has set none: 1 000 €. */
export const DEFAULT_MAJOR_CENTS = 100_000;

const cents = z.number().int().min(0).max(1_000_000_000);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The stored rules (JSON of `segments.rules`): every rule optional, all of them must hold. Money in cents, days as YYYY-MM-DD (UTC, inclusive). */
export const rulesSchema = z
  .object({
    totalMin: cents,
    totalMax: cents,
    thisYearMin: cents,
    thisYearMax: cents,
    lastYearMin: cents,
    lastYearMax: cents,
    giftsMin: z.number().int().min(0).max(1_000_000),
    giftsMax: z.number().int().min(0).max(1_000_000),
    largestMin: cents,
    largestMax: cents,
    firstFrom: day,
    firstTo: day,
    lastFrom: day,
    lastTo: day,
    /** First gift within the calendar year of `now` (ready-made "Nouveaux donateurs de l'année"). */
    firstThisYear: z.literal(true),
    /** Total at least the Admin's threshold (ready-made "Grands donateurs"). */
    major: z.literal(true),
    monthly: z.boolean(),
    /** Carries at least one of these tags. */
    tagIds: z.array(z.string().min(1).max(100)).min(1).max(50),
    /** Made a gift that succeeded designated to this campaign. */
    campaignId: z.string().min(1).max(100),
    /** Made a gift that succeeded by this means. */
    means: z.enum(MEANS),
    /** Subscribed, or gave, in this language. */
    language: z.enum(LANGS),
    /** One of the record's addresses is a subscribed subscriber of the news (true), or none is (false). */
    subscribed: z.boolean(),
  })
  .partial()
  .strict();
export type SegmentRules = z.infer<typeof rulesSchema>;

export interface Segment {
  id: string;
  name: string;
  rules: SegmentRules;
  /** Ready-made: always there, not editable, not deletable. */
  builtIn: boolean;
}

/** The ready-made segments, always present; their ids are words, a saved segment's a UUID. */
export const BUILT_IN_SEGMENTS: readonly Segment[] = [
  { id: 'mensuels', name: 'Donateurs mensuels', rules: { monthly: true }, builtIn: true },
  { id: 'nouveaux', name: 'Nouveaux donateurs de l’année', rules: { firstThisYear: true }, builtIn: true },
  // LYBUNT: gave last year, nothing this year.
  { id: 'perdus-an-dernier', name: 'Perdus de l’an dernier', rules: { lastYearMin: 1, thisYearMax: 0 }, builtIn: true },
  // SYBUNT: gave some year, nothing this year (last year's lapsed donors among them).
  { id: 'perdus', name: 'Perdus', rules: { giftsMin: 1, thisYearMax: 0 }, builtIn: true },
  { id: 'grands', name: 'Grands donateurs', rules: { major: true }, builtIn: true },
];

export const builtInSegment = (id: string): Segment | undefined => BUILT_IN_SEGMENTS.find((s) => s.id === id);

/** What the rules need beside themselves: the clock and the Admin's threshold. */
export interface RuleContext {
  now: Date;
  majorCents: number;
}

/** The day after a YYYY-MM-DD day, as the first instant not in an inclusive range ending that day. */
export function dayAfter(d: string): string {
  const t = new Date(`${d}T00:00:00.000Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}

/** A day that exists (2026-02-30 does not). */
const realDay = (d: string) => {
  const t = new Date(`${d}T00:00:00.000Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
};

// ---- The form ----------------------------------------------------------------------------------

/** The form's fields: money in euros as typed ("1 000,50"), days as the date field gives them. */
export const MONEY_FIELDS = [
  ['total', 'Total depuis toujours'],
  ['thisYear', 'Total de cette année'],
  ['lastYear', 'Total de l’an dernier'],
  ['largest', 'Plus grand don'],
] as const;
export const DATE_FIELDS = [
  ['first', 'Premier don'],
  ['last', 'Dernier don'],
] as const;

type Form = { get(name: string): unknown; getAll?(name: string): unknown[] };

/** Euros as typed ("1 000,50", "20") to cents; null when not a non-negative amount. */
export function eurosToCents(text: string): number | null {
  const t = text.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}

export const centsToEuros = (c: number | undefined): string => (c === undefined ? '' : c % 100 === 0 ? String(c / 100) : (c / 100).toFixed(2).replace('.', ','));

export type SegmentForm = { ok: true; name: string; rules: SegmentRules } | { ok: false; errors: Record<string, string> };

/**
 * A segment form read and checked (the server's check; the page's fields only help): a name, and
 * rules whose bounds make sense (a minimum above its maximum, a day that does not exist, an
 * amount that is not one are refused, in French).
 */
export function readSegmentForm(form: Form): SegmentForm {
  const field = (n: string) => String(form.get(n) ?? '').trim();
  const errors: Record<string, string> = {};
  const name = field('name');
  if (!name) errors.name = 'Donnez un nom au segment.';
  else if (name.length > SEGMENT_NAME_MAX) errors.name = `Un nom tient en ${SEGMENT_NAME_MAX} caractères au plus.`;
  const rules: Record<string, unknown> = {};
  for (const [key] of MONEY_FIELDS) {
    for (const end of ['Min', 'Max'] as const) {
      const raw = field(`${key}${end}`);
      if (!raw) continue;
      const c = eurosToCents(raw);
      if (c === null) errors[`${key}${end}`] = 'Un montant en euros, par exemple 50 ou 12,50.';
      else rules[`${key}${end}`] = c;
    }
    if (typeof rules[`${key}Min`] === 'number' && typeof rules[`${key}Max`] === 'number' && (rules[`${key}Min`] as number) > (rules[`${key}Max`] as number)) {
      errors[`${key}Max`] = 'Le maximum est plus petit que le minimum.';
    }
  }
  for (const end of ['Min', 'Max'] as const) {
    const raw = field(`gifts${end}`);
    if (!raw) continue;
    if (!/^\d{1,6}$/.test(raw)) errors[`gifts${end}`] = 'Un nombre entier de dons.';
    else rules[`gifts${end}`] = Number(raw);
  }
  if (typeof rules.giftsMin === 'number' && typeof rules.giftsMax === 'number' && rules.giftsMin > rules.giftsMax) errors.giftsMax = 'Le maximum est plus petit que le minimum.';
  for (const [key] of DATE_FIELDS) {
    for (const end of ['From', 'To'] as const) {
      const raw = field(`${key}${end}`);
      if (!raw) continue;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || !realDay(raw)) errors[`${key}${end}`] = 'Une date, par exemple 2026-01-31.';
      else rules[`${key}${end}`] = raw;
    }
    const from = rules[`${key}From`];
    const to = rules[`${key}To`];
    if (typeof from === 'string' && typeof to === 'string' && from > to) errors[`${key}To`] = 'Cette date est avant la date de début.';
  }
  const choice = (n: string) => (field(n) === 'oui' ? true : field(n) === 'non' ? false : undefined);
  const monthly = choice('monthly');
  if (monthly !== undefined) rules.monthly = monthly;
  const subscribed = choice('subscribed');
  if (subscribed !== undefined) rules.subscribed = subscribed;
  const tagIds = (form.getAll?.('tagIds') ?? []).map(String).filter(Boolean);
  if (tagIds.length) rules.tagIds = [...new Set(tagIds)];
  for (const k of ['campaignId', 'means', 'language'] as const) if (field(k)) rules[k] = field(k);
  const parsed = rulesSchema.safeParse(rules);
  // What the checks above let through and the schema refuses (a means or a language not in the list): its field's first error.
  if (!parsed.success) for (const [k, v] of Object.entries(issueErrors(parsed.error.issues, (p) => String(p[0])))) errors[k] ??= v;
  if (Object.keys(errors).length) return { ok: false, errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, frenchIssue(k, v)])) };
  return { ok: true, name, rules: parsed.data! };
}

/** zod's own words for an enum or a bound replaced by a French sentence naming the field. */
function frenchIssue(key: string, message: string): string {
  if (/[àâçéèêîôû’]/i.test(message) || message.endsWith('.')) return message;
  const names: Record<string, string> = { means: 'Choisissez un moyen de paiement de la liste.', language: 'Choisissez une langue de la liste.', campaignId: 'Choisissez une campagne de la liste.', tagIds: 'Choisissez des étiquettes de la liste.' };
  return names[key] ?? 'Valeur refusée.';
}

/** The stored rules read back; a row that no longer parses selects nobody rather than everyone. */
export function parseStoredRules(json: string): SegmentRules | null {
  try {
    const r = rulesSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
