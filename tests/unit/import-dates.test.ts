import { describe, expect, it } from 'vitest';
import { parseDate } from '~/domain/imports/fields';
import { parisYear } from '~/lib/paris';

/**
 * An imported file's dates (ADR 036): HelloAsso, GiveWP and French spreadsheets write the Paris
 * wall clock without a zone, so a gift made at 23:30 on 31 December in Paris stays in that year
 * (its receipt's and the register's year), whatever the server's zone.
 */
describe('an imported date is read on the Paris clock', () => {
  it('winter (UTC+1) and summer (UTC+2) times', () => {
    expect(parseDate('14/03/2024 10:12')).toBe('2024-03-14T09:12:00.000Z');
    expect(parseDate('14/07/2024 10:12:30')).toBe('2024-07-14T08:12:30.000Z');
    expect(parseDate('2024-07-14 10:12:00')).toBe('2024-07-14T08:12:00.000Z');
    expect(parseDate('14.07.2024')).toBe('2024-07-14T10:00:00.000Z');
    expect(parseDate('2024-01-05')).toBe('2024-01-05T11:00:00.000Z');
  });

  it('a gift at 23:30 on 31 December in Paris belongs to that year', () => {
    const at = parseDate('31/12/2025 23:30')!;
    expect(at).toBe('2025-12-31T22:30:00.000Z');
    expect(parisYear(at)).toBe(2025);
    expect(parisYear(parseDate('01/01/2026 00:10')!)).toBe(2026);
  });

  it('the clock changes: a skipped time is winter time, a repeated one its first occurrence', () => {
    // 31 March 2024: 02:00 → 03:00. 27 October 2024: 03:00 → 02:00.
    expect(parseDate('31/03/2024 01:59')).toBe('2024-03-31T00:59:00.000Z');
    expect(parseDate('31/03/2024 02:30')).toBe('2024-03-31T01:30:00.000Z');
    expect(parseDate('31/03/2024 03:00')).toBe('2024-03-31T01:00:00.000Z');
    expect(parseDate('27/10/2024 02:30')).toBe('2024-10-27T00:30:00.000Z');
    expect(parseDate('27/10/2024 03:00')).toBe('2024-10-27T02:00:00.000Z');
  });

  it('a time that says its zone keeps it', () => {
    expect(parseDate('2024-07-14T10:12:00Z')).toBe('2024-07-14T10:12:00.000Z');
    expect(parseDate('2024-07-14T10:12:00.000+02:00')).toBe('2024-07-14T08:12:00.000Z');
    expect(parseDate('2024-07-14 10:12:00 -0500')).toBe('2024-07-14T15:12:00.000Z');
  });

  it('an impossible date is none', () => {
    for (const text of ['31/02/2024 09:00', '29/02/2023', '2024-13-01', '12/12/2024 24:00', '12/12/2024 10:60', 'hier', '']) expect(parseDate(text), text).toBeUndefined();
    expect(parseDate('29/02/2024')).toBe('2024-02-29T11:00:00.000Z');
  });
});
