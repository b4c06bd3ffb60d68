/**
 * A membership's states, in one place (ADR 021), like the donations' statuses. Pure and shared
 * with the browser. A state is never stored: it is computed from the membership's dates (the end
 * of what its dues pay for) and the day it is asked about, unless an Admin set an override.
 */
import { addDays, daysBetween, endOfCoverage, type Period } from './period';

export const MEMBERSHIP_STATES = ['pending', 'active', 'due_soon', 'grace', 'lapsed', 'honorary'] as const;
export type MembershipState = (typeof MEMBERSHIP_STATES)[number];

/** Days before the end from which a membership is due soon. */
export const DUE_SOON_DAYS = 30;
/** Days after the end a member is still counted, unless the Admin sets another number. */
export const DEFAULT_GRACE_DAYS = 30;

export interface StateInput {
  /** Honorary or exempt: no dues, no expiry. */
  exempt: boolean;
  /** The last day the dues pay for (null: no dues yet). */
  endsOn: string | null;
  /** An Admin's override, or null. */
  override: MembershipState | null;
}

/** The state the dates give on `today` (a Paris day), ignoring any override. */
export function computedState(input: Omit<StateInput, 'override'>, today: string, graceDays: number): MembershipState {
  if (input.exempt) return 'honorary';
  if (input.endsOn === null) return 'pending';
  const left = daysBetween(today, input.endsOn);
  if (left >= 0) return left <= DUE_SOON_DAYS ? 'due_soon' : 'active';
  return -left <= graceDays ? 'grace' : 'lapsed';
}

/** The state shown and counted: the Admin's override when there is one, else the computed state. */
export function membershipState(input: StateInput, today: string, graceDays: number): MembershipState {
  return input.override ?? computedState(input, today, graceDays);
}

export interface HistoryInput {
  exempt: boolean;
  override: MembershipState | null;
  /** The Paris day the membership was entered in the register. */
  since: string;
  /** The periods its dues that count pay for. */
  periods: readonly Period[];
}

/**
 * The state on any day, recomputed from the history alone: the dates of the periods begun by
 * that day decide (none: pending; a gap between two periods is a lapse). The override and the
 * exemption, being decisions of now, apply from the day the membership was entered (or from its
 * first period, when dues were paid before the entry was typed).
 */
export function stateOn(input: HistoryInput, day: string, graceDays: number): MembershipState {
  const endsOn = endOfCoverage(input.periods.filter((p) => p.start <= day));
  if (endsOn === null && day < input.since) return 'pending';
  return membershipState({ exempt: input.exempt, endsOn, override: input.override }, day, graceDays);
}

/** States that count as a member (for the general assembly's quorum, for members-only news). */
export const COUNTED_STATES: readonly MembershipState[] = ['active', 'due_soon', 'grace', 'honorary'];

export function isCounted(state: MembershipState): boolean {
  return COUNTED_STATES.includes(state);
}

/** States an Admin may force, with a reason: validate a member without dues, exempt one, or strike one off. */
export const OVERRIDE_STATES: readonly MembershipState[] = ['active', 'honorary', 'lapsed'];

/** The last day a member in good standing stays counted: the end plus the grace days (null: no end). */
export function countedUntil(endsOn: string | null, graceDays: number): string | null {
  return endsOn === null ? null : addDays(endsOn, graceDays);
}

export const STATE_LABELS: Record<MembershipState, string> = {
  pending: 'En attente',
  active: 'À jour',
  due_soon: 'À renouveler bientôt',
  grace: 'En délai de grâce',
  lapsed: 'Expirée',
  honorary: "Membre d'honneur / exempté",
};
