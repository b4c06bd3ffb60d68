import { describe, expect, it } from 'vitest';
import { addYears, isPastRetention, retentionEnd, type RetentionInput } from '~/domain/membership/retention';

const base: RetentionInput = { exempt: false, override: null, overrideOn: null, since: '2020-05-01', endsOn: '2023-12-31' };

describe('a member’s data retention', () => {
  it('adds years to a day, 29 February rolling to 1 March in a common year', () => {
    expect(addYears('2023-01-31', 3)).toBe('2026-01-31');
    expect(addYears('2024-02-29', 1)).toBe('2025-03-01');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
  });

  it('keeps a lapsed member’s data `years` after the lapse (the day after end and grace)', () => {
    // Ends 31 December 2023, 30 days of grace: lapsed on 31 January 2024; kept 3 years.
    expect(retentionEnd(base, 30, 3)).toBe('2027-01-31');
    expect(retentionEnd(base, 0, 1)).toBe('2025-01-01');
    expect(isPastRetention(base, '2027-01-30', 30, 3)).toBe(false);
    expect(isPastRetention(base, '2027-01-31', 30, 3)).toBe(true);
  });

  it('an abandoned entry (never paid) counts from the day it was entered', () => {
    expect(retentionEnd({ ...base, endsOn: null }, 30, 3)).toBe('2023-05-01');
  });

  it('an honorary member, or one an Admin keeps active, is kept; one struck off counts from that decision', () => {
    expect(retentionEnd({ ...base, exempt: true }, 30, 3)).toBeNull();
    expect(isPastRetention({ ...base, exempt: true }, '2099-01-01', 30, 1)).toBe(false);
    expect(retentionEnd({ ...base, override: 'active', overrideOn: '2021-01-01' }, 30, 3)).toBeNull();
    expect(retentionEnd({ ...base, override: 'honorary', overrideOn: '2021-01-01' }, 30, 3)).toBeNull();
    expect(retentionEnd({ ...base, override: 'lapsed', overrideOn: '2021-06-15' }, 30, 3)).toBe('2024-06-15');
    expect(retentionEnd({ ...base, override: 'lapsed', overrideOn: null }, 30, 3)).toBeNull();
  });
});
