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

/** What the Paris wall clock reads at an instant, as milliseconds of a UTC date with those figures. */
function parisWall(at: Date): number {
  const parts = dateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

/**
 * The instant at which the Paris wall clock reads this date and time (month 1–12), as the
 * foundation's tools write their exports' times. Paris is UTC+2 in summer, UTC+1 in winter; a time
 * the clocks skip in March (02:30 on their last Sunday) is read as winter time, and a time they
 * show twice in October as its first occurrence.
 */
export function parisInstant(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  for (const offsetHours of [2, 1]) {
    const at = new Date(wall - offsetHours * 3600_000);
    if (parisWall(at) === wall) return at;
  }
  return new Date(wall - 3600_000);
}

/** The Paris calendar day (AAAA-MM-JJ) of an instant. */
export function parisDay(at: string | Date): string {
  return dateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
}

/** A day (AAAA-MM-JJ) as the back office writes it: JJ/MM/AAAA ('—' for none). */
export const dayFr = (day: string | null) => (day ? day.split('-').reverse().join('/') : '—');
