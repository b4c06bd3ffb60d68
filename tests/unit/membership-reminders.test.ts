import { describe, expect, it } from 'vitest';
import { addDays } from '~/domain/membership/period';
import {
  CATCH_UP_DAYS,
  DEFAULT_REMINDER_STEPS,
  dueStep,
  formatReminderSteps,
  MAX_STEP_DAYS,
  parseReminderSteps,
  stepLabel,
  type ReminderInput,
} from '~/domain/membership/reminders';

const END = '2027-05-09';
const at = (days: number) => addDays(END, days);
const STEPS = DEFAULT_REMINDER_STEPS;
const base: ReminderInput = { state: 'active', overridden: false, endsOn: END, sent: [] };

describe('which reminder is due on a day', () => {
  it('defaults to 30 and 7 days before, the day itself and 15 days after', () => {
    expect(DEFAULT_REMINDER_STEPS).toEqual([-30, -7, 0, 15]);
  });

  it('is nothing before the first step, then each step from its day', () => {
    expect(dueStep(base, STEPS, at(-31))).toBeNull();
    expect(dueStep(base, STEPS, at(-30))).toBe(-30);
    expect(dueStep({ ...base, sent: [-30] }, STEPS, at(-29))).toBeNull();
    expect(dueStep({ ...base, sent: [-30] }, STEPS, at(-7))).toBe(-7);
    expect(dueStep({ ...base, sent: [-30, -7] }, STEPS, END)).toBe(0);
    expect(dueStep({ ...base, sent: [-30, -7, 0] }, STEPS, at(14))).toBeNull();
    expect(dueStep({ ...base, state: 'grace', sent: [-30, -7, 0] }, STEPS, at(15))).toBe(15);
    expect(dueStep({ ...base, sent: [-30, -7, 0, 15] }, STEPS, at(16))).toBeNull();
  });

  it('sends the latest step passed, never an older one, and nothing once a later one went', () => {
    // The job was down from day -30 to day -6: only the 7-day reminder goes.
    expect(dueStep(base, STEPS, at(-6))).toBe(-7);
    expect(dueStep({ ...base, sent: [0] }, STEPS, at(1))).toBeNull();
    expect(dueStep({ ...base, sent: [15] }, STEPS, at(-7))).toBeNull();
  });

  it('catches up a missed step for 7 days, not longer', () => {
    expect(CATCH_UP_DAYS).toBe(7);
    expect(dueStep({ ...base, state: 'lapsed' }, STEPS, at(15 + 7))).toBe(15);
    expect(dueStep({ ...base, state: 'lapsed' }, STEPS, at(15 + 8))).toBeNull();
    expect(dueStep(base, [-30], at(-30 + 7))).toBe(-30);
    expect(dueStep(base, [-30], at(-30 + 8))).toBeNull();
  });

  it('reminds only memberships with an end, in a dated state, not overridden', () => {
    for (const state of ['active', 'due_soon', 'grace', 'lapsed'] as const) expect(dueStep({ ...base, state }, STEPS, END), state).toBe(0);
    for (const state of ['pending', 'honorary'] as const) expect(dueStep({ ...base, state }, STEPS, END), state).toBeNull();
    expect(dueStep({ ...base, overridden: true }, STEPS, END)).toBeNull();
    expect(dueStep({ ...base, endsOn: null }, STEPS, END)).toBeNull();
  });

  it('sends nothing with an empty schedule', () => {
    expect(dueStep(base, [], END)).toBeNull();
  });
});

describe('the schedule as the Admin types it', () => {
  it('reads whole days, sorted, signs and spaces allowed', () => {
    expect(parseReminderSteps('-30, -7, 0, 15')).toEqual([-30, -7, 0, 15]);
    expect(parseReminderSteps('15,0,-7,-30')).toEqual([-30, -7, 0, 15]);
    expect(parseReminderSteps(' +5 , -365,365 ')).toEqual([-365, 5, 365]);
    expect(parseReminderSteps('')).toEqual([]);
    expect(parseReminderSteps(' , ')).toEqual([]);
  });

  it('refuses what is not a whole number of days within a year, and repeats', () => {
    expect(MAX_STEP_DAYS).toBe(365);
    for (const bad of ['-30, x', '1.5', '366', '-366', '1000', '7 jours', '30,30', '-0,0', '--3', 'a1', '1a']) expect(parseReminderSteps(bad), bad).toBeNull();
  });

  it('reads back as typed and in words', () => {
    expect(formatReminderSteps([-30, -7, 0, 15])).toBe('-30, -7, 0, 15');
    expect(stepLabel(-30)).toBe('30 jours avant');
    expect(stepLabel(-1)).toBe('1 jour avant');
    expect(stepLabel(0)).toBe("le jour de l'échéance");
    expect(stepLabel(15)).toBe('15 jours après');
    expect(stepLabel(1)).toBe('1 jour après');
  });
});
