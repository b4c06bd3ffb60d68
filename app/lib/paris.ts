/**
 * The foundation's calendar is Paris's: a receipt's year, a membership's days and a form's "today"
 * are read on the Paris wall clock, whatever the server's time zone. A gift made at 00:30 on
 * 1 January in Paris belongs to the new year, though it is still 31 December in UTC. Shared with
 * the browser.
 */
export const PARIS = 'Europe/Paris';

const yearFormat = new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: PARIS });
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: PARIS, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Paris calendar year of an instant. */
export function parisYear(at: string | Date): number {
  // Stryker disable next-line ConditionalExpression: new Date(date) is the same instant as date
  return Number(yearFormat.format(typeof at === 'string' ? new Date(at) : at));
}

/** 1 January 00:00 in Paris (always UTC+1 in winter), as the ISO instant stored timestamps compare with. */
export function parisYearStart(year: number): string {
  return new Date(Date.UTC(year - 1, 11, 31, 23)).toISOString();
}

/** The Paris calendar day (AAAA-MM-JJ) of an instant. */
export function parisDay(at: string | Date): string {
  return dayFormat.format(typeof at === 'string' ? new Date(at) : at);
}
