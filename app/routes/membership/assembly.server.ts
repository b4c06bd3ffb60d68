import { parseRollover } from '~/domain/membership/period';

/** The assembly's day from ?date=YYYY-MM-DD (today when absent); null day when what was typed is no date. */
export function assemblyDayOf(url: URL, today: string): { day: string | null; typed: string } {
  const typed = url.searchParams.get('date')?.trim() ?? today;
  const m = /^(\d{4})-(\d{2}-\d{2})$/.exec(typed);
  // Any day of the year (29 February only in a leap year).
  const ok = m !== null && parseRollover(m[2]) !== null && new Date(`${typed}T12:00:00Z`).toISOString().startsWith(typed);
  return { day: ok ? typed : null, typed };
}
