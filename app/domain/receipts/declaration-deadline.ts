/**
 * When the 222 bis declaration of a fiscal year is due (ADR 035), and when the dashboard reminds
 * it. The rule (CGI art. 222 bis, within the time limits of art. 223): with the results return —
 * form 2070-SD for a foundation that files one, else online (demarches-simplifiees.fr) — within
 * three months of the fiscal year's close, and when the year closes on 31 December, by the second
 * working day after 1 May (CGI annexe III art. 344 I-0 bis). The fiscal year is the accounting
 * settings' (a leaf, app/domain/fiscal-year): a year opening in January is the calendar year.
 * Shared with the browser: no server imports.
 */
import { fiscalYear } from '~/domain/fiscal-year/fiscal-year';

/** Easter Sunday of a year (Gregorian, anonymous algorithm), as a UTC date: Ascension is 39 days later. */
export function easter(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - Math.floor(b / 4) - g + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

const DAY = 24 * 60 * 60 * 1000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Whether a day just after 1 May is worked: Monday to Friday, and not Ascension Thursday (Easter
 * + 39 days, which can fall on 2 to 5 May). The count starts the day after 1 May, and 8 May and
 * Whit Monday never come within its first two working days, so no other holiday needs a rule.
 */
function worked(d: Date): boolean {
  const dow = d.getUTCDay();
  return dow !== 0 && dow !== 6 && iso(d) !== iso(new Date(easter(d.getUTCFullYear()).getTime() + 39 * DAY));
}

/** The second working day after 1 May of `year` (AAAA-MM-JJ). */
function secondWorkingDayAfterMayDay(year: number): string {
  let d = new Date(Date.UTC(year, 4, 1));
  let found = 0;
  while (found < 2) {
    d = new Date(d.getTime() + DAY);
    if (worked(d)) found += 1;
  }
  return iso(d);
}

/** Three months after a day (AAAA-MM-JJ), the day of the month kept within the month's length: 30 June → 30 September, 30 November → 28 (or 29) February. */
function threeMonthsAfter(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const monthLength = new Date(Date.UTC(y, m + 3, 0)).getUTCDate();
  return iso(new Date(Date.UTC(y, m + 2, Math.min(d, monthLength))));
}

/**
 * The last day (AAAA-MM-JJ) to declare the fiscal year `year` (named by the year it opens in, first
 * month `startMonth`): closing on 31 December, the second working day after 1 May of the next year;
 * otherwise three months after its closing day (the legal date: a weekend is not skipped).
 */
export function declarationDeadline(year: number, startMonth = 1): string {
  if (startMonth === 1) return secondWorkingDayAfterMayDay(year + 1);
  return threeMonthsAfter(fiscalYear(startMonth, year).last);
}

/** How long before the deadline the dashboard starts reminding it. */
export const REMINDER_WEEKS = 6;

/** Whether `today` (AAAA-MM-JJ, Paris) falls in the reminder window of the fiscal year `year`'s declaration: from six weeks before its deadline on (overdue included, until it is marked done). */
export function reminderDue(year: number, today: string, startMonth = 1): boolean {
  const deadline = new Date(`${declarationDeadline(year, startMonth)}T00:00:00Z`).getTime();
  return new Date(`${today}T00:00:00Z`).getTime() >= deadline - REMINDER_WEEKS * 7 * DAY;
}
