import { describe, expect, it } from 'vitest';
import {
  addDays,
  coverage,
  daysBetween,
  endOfCoverage,
  firstPeriod,
  nextPeriod,
  parseRollover,
  periodFor,
  yearFrom,
  type PeriodRule,
} from '~/domain/membership/period';
import { parisDay } from '~/lib/paris';

const ANNIVERSARY: PeriodRule = { model: 'anniversary', rollover: '' };
const CALENDAR: PeriodRule = { model: 'calendar', rollover: '' };
const CALENDAR_OCT: PeriodRule = { model: 'calendar', rollover: '10-01' };

describe('days in Paris', () => {
  it('takes the Paris day of an instant: 23:30 UTC on 31 December is already 1 January', () => {
    expect(parisDay('2026-12-31T23:30:00.000Z')).toBe('2027-01-01');
    expect(parisDay('2026-12-31T22:59:59.000Z')).toBe('2026-12-31');
    expect(parisDay('2026-12-31T23:00:00.000Z')).toBe('2027-01-01');
    // Summer time: UTC+2.
    expect(parisDay('2026-06-30T22:30:00.000Z')).toBe('2026-07-01');
    expect(parisDay('2026-06-30T21:59:00.000Z')).toBe('2026-06-30');
  });

  it('adds days and counts them across months, years and 29 February', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30'); // the night clocks change
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(daysBetween('2026-01-10', '2026-01-01')).toBe(-9);
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
  });
});

describe('a year from a day', () => {
  it('ends the day before the same date a year later', () => {
    expect(yearFrom('2026-03-15')).toBe('2027-03-14');
    expect(yearFrom('2026-01-01')).toBe('2026-12-31');
    expect(yearFrom('2026-12-31')).toBe('2027-12-30');
  });

  it('from 29 February ends on 28 February; from 1 March before a leap year, on 29 February', () => {
    expect(yearFrom('2024-02-29')).toBe('2025-02-28');
    expect(yearFrom('2023-03-01')).toBe('2024-02-29');
    expect(yearFrom('2024-03-01')).toBe('2025-02-28');
    expect(yearFrom('2028-02-29')).toBe('2029-02-28');
  });
});

describe('the first period of a new member', () => {
  it('anniversary: twelve months from the payment', () => {
    expect(firstPeriod(ANNIVERSARY, '2026-05-10')).toEqual({ start: '2026-05-10', end: '2027-05-09' });
    expect(firstPeriod({ model: 'anniversary', rollover: '10-01' }, '2026-11-10')).toEqual({ start: '2026-11-10', end: '2027-11-09' });
  });

  it('calendar year: through 31 December of the year paid', () => {
    expect(firstPeriod(CALENDAR, '2026-05-10')).toEqual({ start: '2026-05-10', end: '2026-12-31' });
    expect(firstPeriod(CALENDAR, '2026-12-31')).toEqual({ start: '2026-12-31', end: '2026-12-31' });
  });

  it('calendar year with a rollover: from the rollover day on, through the end of next year', () => {
    expect(firstPeriod(CALENDAR_OCT, '2026-09-30')).toEqual({ start: '2026-09-30', end: '2026-12-31' });
    expect(firstPeriod(CALENDAR_OCT, '2026-10-01')).toEqual({ start: '2026-10-01', end: '2027-12-31' });
    expect(firstPeriod(CALENDAR_OCT, '2026-12-31')).toEqual({ start: '2026-12-31', end: '2027-12-31' });
    expect(firstPeriod(CALENDAR_OCT, '2027-01-01')).toEqual({ start: '2027-01-01', end: '2027-12-31' });
  });
});

describe('renewals', () => {
  it('follow the old end date, whatever the model', () => {
    expect(nextPeriod(ANNIVERSARY, '2027-05-09')).toEqual({ start: '2027-05-10', end: '2028-05-09' });
    expect(nextPeriod(CALENDAR_OCT, '2027-12-31')).toEqual({ start: '2028-01-01', end: '2028-12-31' });
    expect(nextPeriod(ANNIVERSARY, '2025-02-28')).toEqual({ start: '2025-03-01', end: '2026-02-28' });
  });

  it('a member whose type moved to the calendar year renews through the end of the year the old period ends in', () => {
    expect(nextPeriod(CALENDAR, '2027-05-09')).toEqual({ start: '2027-05-10', end: '2027-12-31' });
    expect(nextPeriod(ANNIVERSARY, '2027-12-31')).toEqual({ start: '2028-01-01', end: '2028-12-31' });
  });

  it('an early renewal extends from the current end date, never from today', () => {
    expect(periodFor(ANNIVERSARY, '2027-04-01', '2027-05-09', 30)).toEqual({ start: '2027-05-10', end: '2028-05-09' });
    expect(periodFor(CALENDAR_OCT, '2027-11-15', '2027-12-31', 30)).toEqual({ start: '2028-01-01', end: '2028-12-31' });
    // Paid twice in advance: each year follows the one before.
    expect(periodFor(CALENDAR, '2027-03-01', '2028-12-31', 30)).toEqual({ start: '2029-01-01', end: '2029-12-31' });
    // On the last day itself.
    expect(periodFor(ANNIVERSARY, '2027-05-09', '2027-05-09', 0)).toEqual({ start: '2027-05-10', end: '2028-05-09' });
  });

  it('a renewal during grace extends from the old end date, up to the last day of grace', () => {
    expect(periodFor(ANNIVERSARY, '2027-06-01', '2027-05-09', 30)).toEqual({ start: '2027-05-10', end: '2028-05-09' });
    expect(periodFor(CALENDAR, '2027-01-30', '2026-12-31', 30)).toEqual({ start: '2027-01-01', end: '2027-12-31' });
    expect(periodFor(CALENDAR, '2027-01-31', '2026-12-31', 30)).toEqual({ start: '2027-01-31', end: '2027-12-31' });
  });

  it('after grace, the membership lapsed and starts again from the payment', () => {
    expect(periodFor(ANNIVERSARY, '2027-06-09', '2027-05-09', 30)).toEqual({ start: '2027-06-09', end: '2028-06-08' });
    expect(periodFor(CALENDAR_OCT, '2027-10-05', '2026-12-31', 30)).toEqual({ start: '2027-10-05', end: '2028-12-31' });
    expect(periodFor(ANNIVERSARY, '2027-05-10', '2027-05-09', 0)).toEqual({ start: '2027-05-10', end: '2028-05-09' });
    expect(periodFor(ANNIVERSARY, '2027-05-11', '2027-05-09', 0)).toEqual({ start: '2027-05-11', end: '2028-05-10' });
  });

  it('a first payment starts from its day', () => {
    expect(periodFor(ANNIVERSARY, '2026-02-01', null, 30)).toEqual({ start: '2026-02-01', end: '2027-01-31' });
  });
});

describe('coverage recomputed from the payments alone', () => {
  it('chains the payments that count in the order they were made, in Paris days', () => {
    const dues = [
      { paidAt: '2027-11-20T10:00:00.000Z', counts: true },
      { paidAt: '2026-12-31T23:30:00.000Z', counts: true }, // 1 January 2027 in Paris
      { paidAt: '2027-03-01T10:00:00.000Z', counts: false },
    ];
    const periods = coverage(CALENDAR_OCT, dues, 30);
    expect(periods).toEqual([{ start: '2028-01-01', end: '2028-12-31' }, { start: '2027-01-01', end: '2027-12-31' }, null]);
    expect(endOfCoverage(periods)).toBe('2028-12-31');
  });

  it('a refunded payment gives its year back: the ones after it are recomputed', () => {
    const paid = [
      { paidAt: '2026-01-10T10:00:00.000Z', counts: true },
      { paidAt: '2026-06-10T10:00:00.000Z', counts: true },
    ];
    expect(coverage(ANNIVERSARY, paid, 30)).toEqual([
      { start: '2026-01-10', end: '2027-01-09' },
      { start: '2027-01-10', end: '2028-01-09' },
    ]);
    const refunded = [{ ...paid[0], counts: false }, paid[1]];
    expect(coverage(ANNIVERSARY, refunded, 30)).toEqual([null, { start: '2026-06-10', end: '2027-06-09' }]);
  });

  it('keeps the given order for two payments of the same instant', () => {
    const same = [
      { paidAt: '2026-01-10T10:00:00.000Z', counts: true },
      { paidAt: '2026-01-10T10:00:00.000Z', counts: true },
    ];
    expect(coverage(ANNIVERSARY, same, 30)).toEqual([
      { start: '2026-01-10', end: '2027-01-09' },
      { start: '2027-01-10', end: '2028-01-09' },
    ]);
  });

  it('ends nowhere without a payment that counts, and at the latest end otherwise', () => {
    expect(endOfCoverage([])).toBeNull();
    expect(endOfCoverage([null])).toBeNull();
    expect(endOfCoverage([{ start: '2028-01-01', end: '2028-12-31' }, null, { start: '2027-01-01', end: '2027-12-31' }])).toBe('2028-12-31');
    expect(endOfCoverage([{ start: '2027-01-01', end: '2027-12-31' }, { start: '2028-01-01', end: '2028-12-31' }])).toBe('2028-12-31');
  });
});

describe('a rollover day as typed', () => {
  it('accepts a day of the year, 29 February included', () => {
    expect(parseRollover('10-01')).toBe('10-01');
    expect(parseRollover('02-29')).toBe('02-29');
    expect(parseRollover('12-31')).toBe('12-31');
    expect(parseRollover('01-01')).toBe('01-01');
  });

  it('refuses what is no day of the year', () => {
    for (const bad of ['', '1-10', '10-1', '13-01', '00-10', '10-00', '02-30', '04-31', '10-01x', 'x10-01', 'ab-cd']) expect(parseRollover(bad), bad).toBeNull();
  });
});
