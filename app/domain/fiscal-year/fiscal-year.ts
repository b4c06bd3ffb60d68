/**
 * The foundation's fiscal year (exercice), shared by the accounting export (ADR 034) and the 222 bis
 * declaration of the receipts (ADR 035). A leaf: it imports no area, so that both may use it without
 * a circle (accounting reads the receipts' registration; receipts could not import accounting). A
 * fiscal year is named by the calendar year it opens in; its first month is the accounting
 * settings' `fiscalStartMonth` (January by default). Days are Paris days (AAAA-MM-JJ). Shared with
 * the browser: no server imports.
 */

/**
 * A fiscal year, named by the calendar year it opens in: its first and last Paris days (AAAA-MM-JJ).
 * Opening in January, 2026 is 2026-01-01 to 2026-12-31; opening in July, 2026 runs to 2027-06-30.
 */
export function fiscalYear(startMonth: number, year: number): { year: number; first: string; last: string } {
  const first = `${year}-${String(startMonth).padStart(2, '0')}-01`;
  const last = new Date(Date.UTC(year + 1, startMonth - 1, 0)).toISOString().slice(0, 10);
  return { year, first, last };
}

/** The fiscal year a Paris day (AAAA-MM-JJ) belongs to, by the year it opens in. */
export function fiscalYearOf(startMonth: number, day: string): number {
  const year = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= startMonth ? year : year - 1;
}

/** How the screen names a fiscal year: "2026", or "2026-2027" when it does not open in January. */
export function fiscalYearName(startMonth: number, year: number): string {
  return startMonth === 1 ? String(year) : `${year}-${year + 1}`;
}

/** The months' French names, lowercase, January first. */
export const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

/** A Paris day in words: "1er juillet 2025", "30 juin 2026". */
export function dayInWords(day: string): string {
  const d = Number(day.slice(8, 10));
  return `${d === 1 ? '1er' : d} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** A fiscal year as a picker offers it: "2025" (the calendar year), or "Exercice 2025-2026 (1er juillet 2025 – 30 juin 2026)". */
export function fiscalYearLabel(startMonth: number, year: number): string {
  if (startMonth === 1) return String(year);
  const { first, last } = fiscalYear(startMonth, year);
  return `Exercice ${fiscalYearName(startMonth, year)} (${dayInWords(first)} – ${dayInWords(last)})`;
}
