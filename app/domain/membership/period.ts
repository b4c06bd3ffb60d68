import { parisDay } from '~/lib/paris';
/**
 * The period a membership's dues pay for (ADR 021). Pure and shared with the browser.
 *
 * Every date here is a calendar day in Paris, written 'YYYY-MM-DD': a payment at 23:30 UTC on
 * 31 December is made on 1 January in Paris, and it is the Paris day that decides the period.
 * A period runs from its first day to its last day, both included.
 */

export const PERIOD_MODELS = ['anniversary', 'calendar'] as const;
export type PeriodModel = (typeof PERIOD_MODELS)[number];

/** A type's period rule: anniversary (twelve months from the payment), or the calendar year with an optional rollover day ('MM-DD'). */
export interface PeriodRule {
  model: PeriodModel;
  /** Calendar model only: from this day of the year (included), a new member is counted through the end of next year. '' for none. */
  rollover: string;
}

export interface Period {
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;

function toUtc(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return fromUtc(toUtc(day) + days * DAY_MS);
}

/** Days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

/**
 * The last day of a year that starts on `start`: the day before the same date a year later.
 * A year from 29 February ends on 28 February (the next year's 1 March is its anniversary), and a
 * year from 1 March of a leap year's eve ends on 29 February when there is one.
 */
export function yearFrom(start: string): string {
  const y = Number(start.slice(0, 4)) + 1;
  // Date.UTC rolls 29 February of a common year over to 1 March: that day is the anniversary.
  return addDays(fromUtc(Date.UTC(y, Number(start.slice(5, 7)) - 1, Number(start.slice(8, 10)))), -1);
}

/** The period a payment made on `paidOn` (a new membership, nothing to extend) pays for. */
export function firstPeriod(rule: PeriodRule, paidOn: string): Period {
  if (rule.model === 'anniversary') return { start: paidOn, end: yearFrom(paidOn) };
  const year = Number(paidOn.slice(0, 4));
  const rolled = rule.rollover !== '' && paidOn.slice(5) >= rule.rollover;
  return { start: paidOn, end: `${rolled ? year + 1 : year}-12-31` };
}

/** The period a renewal pays for: the year that follows `currentEnd`, whenever it is paid. */
export function nextPeriod(rule: PeriodRule, currentEnd: string): Period {
  const start = addDays(currentEnd, 1);
  return { start, end: rule.model === 'anniversary' ? yearFrom(start) : `${start.slice(0, 4)}-12-31` };
}

/**
 * The period a payment on `paidOn` pays for, given the end of the membership so far (null: never
 * paid). Paid before the end, or within `graceDays` after it, it renews: the new year follows the
 * old end date, so an early renewal loses no day and a late one gains none. Later than that, the
 * membership had lapsed and starts again from the payment.
 */
export function periodFor(rule: PeriodRule, paidOn: string, currentEnd: string | null, graceDays: number): Period {
  if (currentEnd !== null && daysBetween(currentEnd, paidOn) <= graceDays) return nextPeriod(rule, currentEnd);
  return firstPeriod(rule, paidOn);
}

export interface DuesForCoverage {
  /** The payment's instant (ISO). */
  paidAt: string;
  /** Whether it still counts (a refunded or cancelled payment does not). */
  counts: boolean;
}

/**
 * The periods a membership's dues pay for, recomputed from the payments alone: the payments that
 * count, in the order they were made, each extending what the ones before paid for. Returns one
 * period per payment, in the given order (null for one that does not count).
 */
export function coverage(rule: PeriodRule, dues: readonly DuesForCoverage[], graceDays: number): (Period | null)[] {
  // A stable sort: two payments of the same instant keep their given order.
  const order = dues.map((d, i) => ({ ...d, i })).sort((a, b) => Date.parse(a.paidAt) - Date.parse(b.paidAt));
  const periods: (Period | null)[] = dues.map(() => null);
  let end: string | null = null;
  for (const d of order) {
    if (!d.counts) continue;
    const p = periodFor(rule, parisDay(d.paidAt), end, graceDays);
    periods[d.i] = p;
    end = p.end;
  }
  return periods;
}

/** The last day the dues pay for (null: none that count). */
export function endOfCoverage(periods: readonly (Period | null)[]): string | null {
  const ends = periods.flatMap((p) => (p ? [p.end] : [])).sort();
  return ends.length ? ends[ends.length - 1] : null;
}

/** A rollover day as typed ('MM-DD'), or null when it is no day of the year (29 February allowed). */
export function parseRollover(value: string): string | null {
  const m = /^(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1) return null;
  // 2024 is a leap year: 29 February is a day some years have.
  const last = new Date(Date.UTC(2024, month, 0)).getUTCDate();
  return day <= last ? value : null;
}
