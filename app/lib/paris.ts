import { dateTimeFormat } from './intl';

/**
 * The foundation's calendar is Paris's: a receipt's year, a membership's days and a form's "today"
 * are read on the Paris wall clock, whatever the server's time zone. A gift made at 00:30 on
 * 1 January in Paris belongs to the new year, though it is still 31 December in UTC. Shared with
 * the browser.
 */

/** The Paris calendar year of an instant. */
export function parisYear(at: string | Date): number {
  return Number(dateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Paris' }).format(new Date(at)));
}

/** 1 January 00:00 in Paris (always UTC+1 in winter), as the ISO instant stored timestamps compare with. */
export function parisYearStart(year: number): string {
  return new Date(Date.UTC(year - 1, 11, 31, 23)).toISOString();
}

/** 00:00 in Paris on a day (AAAA-MM-JJ), as an ISO instant: UTC+1 in winter, UTC+2 in summer (a day never starts in a clock change, made at 2 or 3 a.m.). */
export function parisDayStart(day: string): string {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const summer = new Date(midnightUtc - 2 * 3600_000);
  return (parisDay(summer) === day ? summer : new Date(midnightUtc - 3600_000)).toISOString();
}

/** The Paris calendar day (AAAA-MM-JJ) of an instant. */
export function parisDay(at: string | Date): string {
  return dateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
}

/** A day (AAAA-MM-JJ) as the back office writes it: JJ/MM/AAAA ('—' for none). */
export const dayFr = (day: string | null) => (day ? day.split('-').reverse().join('/') : '—');
