/**
 * Receipts follow the French calendar year: a gift made at 00:30 on 1 January in Paris belongs to
 * the new year, even though it is still 31 December in UTC. Shared with the browser.
 */
const yearFormat = new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Paris' });

export function parisYear(at: string | Date): number {
  // Stryker disable next-line ConditionalExpression: new Date(date) is the same instant as date
  return Number(yearFormat.format(typeof at === 'string' ? new Date(at) : at));
}

/** 1 January 00:00 in Paris (always UTC+1 in winter), as the ISO instant stored timestamps compare with. */
export function parisYearStart(year: number): string {
  return new Date(Date.UTC(year - 1, 11, 31, 23)).toISOString();
}
