/**
 * The renewal reminders' schedule (ADR 021). Pure and shared with the browser.
 *
 * A step is a number of days relative to the membership's end: -30 is thirty days before, 0 the
 * day itself, 15 fifteen days after. A step is sent once per member and per period end (a renewed
 * membership gets next year's reminders), and only while it is the latest step passed: a job that
 * was down for a few days sends the step it missed, never two at once, never a stale one.
 */
import { addDays } from './period';
import type { MembershipState } from './status';

export const DEFAULT_REMINDER_STEPS: readonly number[] = [-30, -7, 0, 15];
/** How many days after its date a missed step may still be sent. */
export const CATCH_UP_DAYS = 7;
/** The furthest a step may be from the end, either way. */
export const MAX_STEP_DAYS = 365;

/** States that get reminders: a membership with an end, not overridden. */
const REMINDED: readonly MembershipState[] = ['active', 'due_soon', 'grace', 'lapsed'];

export interface ReminderInput {
  state: MembershipState;
  /** Whether an Admin overrode the state (no reminders then). */
  overridden: boolean;
  endsOn: string | null;
  /** Steps already sent for this period end. */
  sent: readonly number[];
}

/**
 * The step due on `today` for a membership, or null. `steps` sorted ascending (see
 * `parseReminderSteps`).
 */
export function dueStep(input: ReminderInput, steps: readonly number[], today: string): number | null {
  if (input.overridden || input.endsOn === null || !REMINDED.includes(input.state)) return null;
  const endsOn = input.endsOn;
  const passed = steps.filter((s) => addDays(endsOn, s) <= today);
  if (passed.length === 0) return null;
  const latest = passed[passed.length - 1];
  if (input.sent.some((s) => s >= latest)) return null;
  return addDays(endsOn, latest + CATCH_UP_DAYS) >= today ? latest : null;
}

/**
 * A schedule as the Admin types it ("-30, -7, 0, 15"): whole days, each at most a year from the
 * end, no repeat; sorted. Null when a value is not one; an empty text is no reminder at all.
 */
export function parseReminderSteps(text: string): number[] | null {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const steps: number[] = [];
  for (const p of parts) {
    if (!/^[-+]?\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (Math.abs(n) > MAX_STEP_DAYS || steps.includes(n)) return null;
    steps.push(n);
  }
  return steps.sort((a, b) => a - b);
}

/** A schedule as the Admin reads it back. */
export function formatReminderSteps(steps: readonly number[]): string {
  return steps.join(', ');
}

/** A step in words, for the back office ("30 jours avant", "le jour même", "15 jours après"). */
export function stepLabel(step: number): string {
  if (step === 0) return "le jour de l'échéance";
  const n = Math.abs(step);
  return `${n} jour${n > 1 ? 's' : ''} ${step < 0 ? 'avant' : 'après'}`;
}
