import { describe, expect, it } from 'vitest';
import { periodRange, readDonationQuery } from '~/domain/donations/admin-filters';

const q = (s: string) => readDonationQuery(new URLSearchParams(s));
const NOW = new Date('2026-03-15T10:30:00Z');

describe('the donations screen filters', () => {
  it('reads each period, and defaults to this month', () => {
    for (const period of ['month', 'last-month', 'year', 'all', 'custom'] as const) expect(q(`period=${period}`).period).toBe(period);
    expect(q('')).toEqual({ period: 'month', from: '', to: '', provider: '', status: '', campaign: '' });
    expect(q('period=decade')).toMatchObject({ period: 'month' });
  });

  it('takes dates alone as a custom period, and keeps only well-formed dates', () => {
    expect(q('from=2026-01-01')).toMatchObject({ period: 'custom', from: '2026-01-01', to: '' });
    expect(q('to=2026-01-31')).toMatchObject({ period: 'custom', from: '', to: '2026-01-31' });
    expect(q('period=year&from=2026-01-01')).toMatchObject({ period: 'year' });
    expect(q('period=month&from=2026-01-01')).toMatchObject({ period: 'month' });
    expect(q('period=custom&from=2026-1-1&to=x2026-01-31')).toMatchObject({ from: '', to: '' });
    expect(q('period=custom&from=2026-01-01x&to=2026-01-31 ')).toMatchObject({ from: '', to: '' });
  });

  it('keeps a known provider and status, and drops anything else', () => {
    expect(q('provider=paypal&status=refunded')).toMatchObject({ provider: 'paypal', status: 'refunded' });
    // Dues an Admin recorded by hand are filtered by their means too (ADR 021).
    expect(q('provider=cheque')).toMatchObject({ provider: 'cheque' });
    expect(q('provider=bitcoin&status=lost')).toMatchObject({ provider: '', status: '' });
  });

  it('turns a period into [from, to) in UTC', () => {
    expect(periodRange(q('period=month'), NOW)).toEqual({ from: '2026-03-01T00:00:00.000Z' });
    expect(periodRange(q('period=last-month'), NOW)).toEqual({ from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    expect(periodRange(q('period=last-month'), new Date('2026-01-10T00:00:00Z'))).toEqual({ from: '2025-12-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' });
    expect(periodRange(q('period=year'), NOW)).toEqual({ from: '2026-01-01T00:00:00.000Z' });
    expect(periodRange(q('period=all'), NOW)).toStrictEqual({});
    // The end day is included: up to the next midnight.
    expect(periodRange(q('from=2026-02-01&to=2026-02-28'), NOW)).toEqual({ from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    expect(periodRange(q('period=custom'), NOW)).toEqual({ from: undefined, to: undefined });
  });
});
