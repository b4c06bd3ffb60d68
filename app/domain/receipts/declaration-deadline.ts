/**
 * When the 222 bis declaration of a fiscal year is due (ADR 035), and when the dashboard reminds
 * it. The rule (CGI art. 222 bis, within the time limits of art. 223): with the results return —
 * form 2070-SD for a foundation that files one, else online (demarches-simplifiees.fr) — within
 * three months of the fiscal year's close, and when the year closes on 31 December, by the second
 * working day after 1 May. No fiscal-year setting exists yet: the fiscal year is the calendar year.
 * Shared with the browser: no server imports.
 */

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

/** The last day (AAAA-MM-JJ) to declare the calendar year `year`: the second working day after 1 May of the next year. */
export function declarationDeadline(year: number): string {
  let d = new Date(Date.UTC(year + 1, 4, 1));
  let found = 0;
  while (found < 2) {
    d = new Date(d.getTime() + DAY);
    if (worked(d)) found += 1;
  }
  return iso(d);
}

/** How long before the deadline the dashboard starts reminding it. */
export const REMINDER_WEEKS = 6;

/** Whether `today` (AAAA-MM-JJ, Paris) falls in the reminder window of `year`'s declaration: from six weeks before its deadline on (overdue included, until it is marked done). */
export function reminderDue(year: number, today: string): boolean {
  const deadline = new Date(`${declarationDeadline(year)}T00:00:00Z`).getTime();
  return new Date(`${today}T00:00:00Z`).getTime() >= deadline - REMINDER_WEEKS * 7 * DAY;
}
