/**
 * When a member's data are past their retention (ADR 021): the membership settings keep a lapsed
 * member's data `retentionYears` after the lapse, then the retention job anonymises them (as
 * erasure does). Pure: decided from the dates alone.
 */
import { addDays } from './period';
import type { MembershipState } from './status';

export interface RetentionInput {
  exempt: boolean;
  override: MembershipState | null;
  /** The Paris day of the Admin's override (when there is one). */
  overrideOn: string | null;
  /** The Paris day the member was entered. */
  since: string;
  /** The last day the dues that count pay for; null when none was ever paid. */
  endsOn: string | null;
}

/** The same day `years` later (29 February, in a common year, rolls to 1 March). */
export function addYears(day: string, years: number): string {
  return new Date(Date.UTC(Number(day.slice(0, 4)) + years, Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)))).toISOString().slice(0, 10);
}

/**
 * The first day a member's data may be anonymised, or null while they are kept: an honorary
 * member's, or one an Admin keeps active, never; one struck off by an Admin, `years` after that
 * decision; one who never paid (an abandoned entry), `years` after the entry; any other,
 * `years` after the day they lapsed (the day after the end and its grace days). Whether that day
 * has come is `isPastRetention`.
 */
export function retentionEnd(m: RetentionInput, graceDays: number, years: number): string | null {
  if (m.exempt) return null;
  if (m.override === 'lapsed') return m.overrideOn === null ? null : addYears(m.overrideOn, years);
  if (m.override !== null) return null;
  if (m.endsOn === null) return addYears(m.since, years);
  return addYears(addDays(m.endsOn, graceDays + 1), years);
}

export function isPastRetention(m: RetentionInput, today: string, graceDays: number, years: number): boolean {
  const end = retentionEnd(m, graceDays, years);
  return end !== null && end <= today;
}
