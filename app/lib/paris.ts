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

/** The Paris calendar day (AAAA-MM-JJ) of an instant. */
export function parisDay(at: string | Date): string {
  return dateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
}

/** A day (AAAA-MM-JJ) as the back office writes it: JJ/MM/AAAA ('—' for none). */
export const dayFr = (day: string | null) => (day ? day.split('-').reverse().join('/') : '—');
