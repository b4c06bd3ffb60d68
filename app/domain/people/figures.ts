/**
 * A donor's figures as fundraisers read them (ADR 038), from what the register keeps in step with
 * the ledger: the gifts that count as the reports count them (ADR 016: succeeded, in money, euros
 * known; refunds and lost disputes leave that status), dated by when they succeeded (UTC).
 * Pure: the clock is an argument.
 */

/** A monthly gift paid within this many days keeps its donor "monthly" (the reports' rule). */
export const MONTHLY_WITHIN_DAYS = 31;
const DAY_MS = 86_400_000;

export interface StoredFigures {
  gifts: number;
  total_cents: number;
  largest_cents: number;
  first_gift_at: string | null;
  last_gift_at: string | null;
  last_monthly_at: string | null;
}

export interface DonorFigures {
  gifts: number;
  totalCents: number;
  largestCents: number;
  firstGiftAt: string | null;
  lastGiftAt: string | null;
  thisYearCents: number;
  lastYearCents: number;
  monthly: boolean;
}

/** The calendar year (UTC) of `now`, as the reports date a gift. */
export function yearOf(now: Date): number {
  return now.getUTCFullYear();
}

/** The instant from which a monthly gift still counts as "monthly" at `now`. */
export function monthlySince(now: Date): string {
  return new Date(now.getTime() - MONTHLY_WITHIN_DAYS * DAY_MS).toISOString();
}

/** Whether a donor whose last monthly gift succeeded at `lastMonthlyAt` gives monthly at `now`. */
export function givesMonthly(lastMonthlyAt: string | null, now: Date): boolean {
  return lastMonthlyAt !== null && lastMonthlyAt >= monthlySince(now);
}

/** The figures of one record at `now`, with its euros of this year and last year. */
export function figuresOf(f: StoredFigures, years: { thisYear: number | null; lastYear: number | null }, now: Date): DonorFigures {
  return {
    gifts: Number(f.gifts),
    totalCents: Number(f.total_cents),
    largestCents: Number(f.largest_cents),
    firstGiftAt: f.first_gift_at,
    lastGiftAt: f.last_gift_at,
    thisYearCents: Number(years.thisYear ?? 0),
    lastYearCents: Number(years.lastYear ?? 0),
    monthly: givesMonthly(f.last_monthly_at, now),
  };
}

/** One gift as the figures read it (a row of the ledger that counts). */
export interface CountedGift {
  eurCents: number;
  succeededAt: string;
  frequency: string;
}

/**
 * The stored figures of a list of counted gifts, and their euros per year: what the register's SQL
 * computes, written once more in plain code as the reference the tests hold the SQL to.
 */
export function summarize(gifts: readonly CountedGift[]): { figures: StoredFigures; years: Map<number, { gifts: number; cents: number }> } {
  const figures: StoredFigures = { gifts: 0, total_cents: 0, largest_cents: 0, first_gift_at: null, last_gift_at: null, last_monthly_at: null };
  const years = new Map<number, { gifts: number; cents: number }>();
  for (const g of gifts) {
    figures.gifts += 1;
    figures.total_cents += g.eurCents;
    figures.largest_cents = Math.max(figures.largest_cents, g.eurCents);
    if (figures.first_gift_at === null || g.succeededAt < figures.first_gift_at) figures.first_gift_at = g.succeededAt;
    if (figures.last_gift_at === null || g.succeededAt > figures.last_gift_at) figures.last_gift_at = g.succeededAt;
    if (g.frequency === 'monthly' && (figures.last_monthly_at === null || g.succeededAt > figures.last_monthly_at)) figures.last_monthly_at = g.succeededAt;
    const year = Number(g.succeededAt.slice(0, 4));
    const y = years.get(year) ?? { gifts: 0, cents: 0 };
    years.set(year, { gifts: y.gifts + 1, cents: y.cents + g.eurCents });
  }
  return { figures, years };
}
