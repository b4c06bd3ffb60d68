import { describe, expect, it } from 'vitest';
import { duesByMonth, lapseDays, lastDayOf, memberMonths, type MemberHistory } from '~/domain/membership/report';

const GRACE = 30;
const member = (over: Partial<MemberHistory> = {}): MemberHistory => ({ exempt: false, override: null, since: '2025-01-01', periods: [], dues: [], ...over });

/** Paid 10 March 2025 (anniversary): through 9 March 2026; grace to 8 April; lapsed from 9 April 2026. */
const LAPSING = member({ periods: [{ start: '2025-03-10', end: '2026-03-09' }], dues: [{ paidOn: '2025-03-10', cents: 3000 }] });
/** Paid in 2025, renewed in grace (20 March 2026): the next period follows the old end. */
const RENEWED = member({
  periods: [
    { start: '2025-03-10', end: '2026-03-09' },
    { start: '2026-03-10', end: '2027-03-09' },
  ],
  dues: [
    { paidOn: '2025-03-10', cents: 3000 },
    { paidOn: '2026-03-20', cents: 3500 },
  ],
});
/** Lapsed in April 2026, came back in June 2026 (a new period from the payment). */
const CAME_BACK = member({
  periods: [
    { start: '2025-03-10', end: '2026-03-09' },
    { start: '2026-06-15', end: '2027-06-14' },
  ],
  dues: [
    { paidOn: '2025-03-10', cents: 3000 },
    { paidOn: '2026-06-15', cents: 3000 },
  ],
});
const MONTHS = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];

describe('the members’ months of the reports', () => {
  it('knows each month’s last day, leap years included', () => {
    expect(lastDayOf('2026-02')).toBe('2026-02-28');
    expect(lastDayOf('2028-02')).toBe('2028-02-29');
    expect(lastDayOf('2026-12')).toBe('2026-12-31');
    expect(lastDayOf('2026-04')).toBe('2026-04-30');
  });

  it('dates a lapse the day after the grace days, never for a renewal in grace, again after a comeback', () => {
    expect(lapseDays(LAPSING, GRACE)).toEqual(['2026-04-09']);
    expect(lapseDays(LAPSING, 0)).toEqual(['2026-03-10']);
    expect(lapseDays(RENEWED, GRACE)).toEqual(['2027-04-09']);
    expect(lapseDays(CAME_BACK, GRACE)).toEqual(['2026-04-09', '2027-07-15']);
    // Honorary, or an Admin's override: no lapse.
    expect(lapseDays({ ...LAPSING, exempt: true }, GRACE)).toEqual([]);
    expect(lapseDays({ ...LAPSING, override: 'active' }, GRACE)).toEqual([]);
    // Struck off by an Admin: lapsed all along, so no day turns it lapsed.
    expect(lapseDays({ ...LAPSING, override: 'lapsed' }, GRACE)).toEqual([]);
    expect(lapseDays(member(), GRACE)).toEqual([]);
  });

  it('counts active (end of month), new, renewed and lapsed members month by month', () => {
    const rows = memberMonths([LAPSING, RENEWED, CAME_BACK, member({ exempt: true })], MONTHS, '2026-12-01', GRACE);
    expect(rows).toEqual([
      { month: '2026-02', active: 4, new: 0, renewed: 0, lapsed: 0 },
      // End of March: the three are in grace or renewed, the honorary one too.
      { month: '2026-03', active: 4, new: 0, renewed: 1, lapsed: 0 },
      { month: '2026-04', active: 2, new: 0, renewed: 0, lapsed: 2 },
      { month: '2026-05', active: 2, new: 0, renewed: 0, lapsed: 0 },
      { month: '2026-06', active: 3, new: 0, renewed: 1, lapsed: 0 },
    ]);
  });

  it('counts a member’s first dues as new, in the month they were paid', () => {
    const rows = memberMonths([member({ periods: [{ start: '2026-02-01', end: '2027-01-31' }], dues: [{ paidOn: '2026-02-01', cents: 3000 }] })], ['2026-01', '2026-02'], '2026-12-01', GRACE);
    expect(rows).toEqual([
      { month: '2026-01', active: 0, new: 0, renewed: 0, lapsed: 0 },
      { month: '2026-02', active: 1, new: 1, renewed: 0, lapsed: 0 },
    ]);
  });

  it('counts nothing after today: the current month is read on today, a month to come is empty', () => {
    // Today 5 April 2026: the grace of LAPSING still runs (lapses on the 9th).
    const rows = memberMonths([LAPSING], ['2026-04', '2026-05'], '2026-04-05', GRACE);
    expect(rows).toEqual([
      { month: '2026-04', active: 1, new: 0, renewed: 0, lapsed: 0 },
      { month: '2026-05', active: 0, new: 0, renewed: 0, lapsed: 0 },
    ]);
    expect(memberMonths([LAPSING], ['2026-04'], '2026-04-09', GRACE)).toEqual([{ month: '2026-04', active: 0, new: 0, renewed: 0, lapsed: 1 }]);
    // Today is the month's first day: the month is read on it.
    expect(memberMonths([LAPSING], ['2026-04'], '2026-04-01', GRACE)[0].active).toBe(1);
    // A payment dated after today (a clock ahead) is not counted yet.
    expect(memberMonths([member({ dues: [{ paidOn: '2026-04-20', cents: 1 }] })], ['2026-04'], '2026-04-10', GRACE)[0].new).toBe(0);
  });

  it('ignores months not asked', () => {
    expect(memberMonths([LAPSING, RENEWED], ['2025-01'], '2026-12-01', GRACE)).toEqual([{ month: '2025-01', active: 0, new: 0, renewed: 0, lapsed: 0 }]);
  });

  it('sums the dues by the month they were paid, only in the months asked', () => {
    const byMonth = duesByMonth([LAPSING, RENEWED, CAME_BACK], ['2025-03', '2026-03', '2026-07']);
    expect(Object.fromEntries(byMonth)).toEqual({
      '2025-03': { dues: 3, cents: 9000 },
      '2026-03': { dues: 1, cents: 3500 },
      '2026-07': { dues: 0, cents: 0 },
    });
  });
});
