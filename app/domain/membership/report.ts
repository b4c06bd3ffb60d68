/**
 * The membership figures of the reports screen (ADR 021, ADR 016), month by month. Pure: the
 * states come from the dates and the dues alone (status.ts), as everywhere else.
 *
 * Every date is a Paris day; a month is 'YYYY-MM' of Paris days.
 * - active: members counted (up to date, due soon, in grace, honorary) on the month's last day,
 *   or today for the current month; none for a month to come;
 * - new: a member's first dues that count, paid that month;
 * - renewed: any later dues that count, paid that month;
 * - lapsed: members whose state became "lapsed" that month (the day after the grace days), up to today;
 * - dues: the dues that count (refunded and cancelled ones are deducted), by the month they were paid.
 */
import { addDays, type Period } from './period';
import { isCounted, stateOn, type MembershipState } from './status';

export interface MemberHistory {
  exempt: boolean;
  override: MembershipState | null;
  /** The Paris day the member was entered. */
  since: string;
  /** The periods the dues that count pay for. */
  periods: readonly Period[];
  /** The Paris days the dues that count were paid, oldest first, with their amounts. */
  dues: readonly { paidOn: string; cents: number }[];
}

export interface MemberMonth {
  month: string;
  active: number;
  new: number;
  renewed: number;
  lapsed: number;
}

export interface DuesBucket {
  dues: number;
  cents: number;
}

/** The last day of a month ('2026-02' → '2026-02-28'). */
export function lastDayOf(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The days a member's state turns to lapsed: the day after each period's end and grace, when nothing took over by then. */
export function lapseDays(h: MemberHistory, graceDays: number): string[] {
  const days: string[] = [];
  for (const p of h.periods) {
    const day = addDays(p.end, graceDays + 1);
    if (stateOn(h, day, graceDays) === 'lapsed' && stateOn(h, addDays(day, -1), graceDays) !== 'lapsed') days.push(day);
  }
  return days;
}

/** The members' figures for each of `months`, as known on `today`. */
export function memberMonths(members: readonly MemberHistory[], months: readonly string[], today: string, graceDays: number): MemberMonth[] {
  const rows = new Map<string, MemberMonth>(months.map((month) => [month, { month, active: 0, new: 0, renewed: 0, lapsed: 0 }]));
  const inMonth = (day: string) => (day <= today ? rows.get(day.slice(0, 7)) : undefined);
  for (const h of members) {
    h.dues.forEach((d, i) => {
      const row = inMonth(d.paidOn);
      if (row) row[i === 0 ? 'new' : 'renewed'] += 1;
    });
    for (const day of lapseDays(h, graceDays)) {
      const row = inMonth(day);
      if (row) row.lapsed += 1;
    }
    for (const row of rows.values()) {
      const first = `${row.month}-01`;
      if (first > today) continue;
      const last = lastDayOf(row.month);
      if (isCounted(stateOn(h, last < today ? last : today, graceDays))) row.active += 1;
    }
  }
  return [...rows.values()];
}

/** Dues that count, summed by the month they were paid (only the months asked). */
export function duesByMonth(members: readonly MemberHistory[], months: readonly string[]): Map<string, DuesBucket> {
  const out = new Map<string, DuesBucket>(months.map((m) => [m, { dues: 0, cents: 0 }]));
  for (const h of members) {
    for (const d of h.dues) {
      const b = out.get(d.paidOn.slice(0, 7));
      if (!b) continue;
      b.dues += 1;
      b.cents += d.cents;
    }
  }
  return out;
}
