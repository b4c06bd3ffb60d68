import { periodRange, readDonationQuery, type DonationQuery } from '~/domain/donations/admin-filters';

/**
 * The reports' period: the donations screen's filter (same names, same bounds) plus the reports'
 * default, the last twelve calendar months including the current one. Shared with the browser.
 */
export type ReportPeriodName = DonationQuery['period'] | '12-months';

export interface ReportQuery {
  period: ReportPeriodName;
  from: string;
  to: string;
}

export interface ReportRange {
  /** First instant counted (ISO, UTC); absent for "Tout" until the first gift is known. */
  from?: string;
  /** First instant no longer counted (ISO, UTC); absent when the period runs to now. */
  to?: string;
}

export function readReportQuery(params: URLSearchParams): ReportQuery {
  const period = params.get('period');
  if ((period === null || period === '12-months') && !params.get('from') && !params.get('to')) return { period: '12-months', from: '', to: '' };
  const q = readDonationQuery(params);
  return { period: q.period, from: q.from, to: q.to };
}

export function reportRange(q: ReportQuery, now = new Date()): ReportRange {
  const period = q.period;
  if (period === '12-months') {
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth();
    return { from: new Date(Date.UTC(y, m - 11, 1)).toISOString(), to: new Date(Date.UTC(y, m + 1, 1)).toISOString() };
  }
  return periodRange({ period, from: q.from, to: q.to, provider: '', status: '', campaign: '' }, now);
}

/** The same instant one year earlier, as ISO text (text comparison is what the ledger's columns use). */
export function yearEarlier(iso: string): string {
  return `${String(Number(iso.slice(0, 4)) - 1).padStart(4, '0')}${iso.slice(4)}`;
}

/** "2026-03" for every calendar month meeting [from, to). */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  for (;;) {
    const key = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    if (`${key}-01T00:00:00.000Z` >= to) break;
    months.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

