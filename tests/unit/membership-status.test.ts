import { describe, expect, it } from 'vitest';
import { addDays } from '~/domain/membership/period';
import {
  COUNTED_STATES,
  computedState,
  countedUntil,
  DEFAULT_GRACE_DAYS,
  DUE_SOON_DAYS,
  isCounted,
  MEMBERSHIP_STATES,
  membershipState,
  OVERRIDE_STATES,
  STATE_LABELS,
  stateOn,
} from '~/domain/membership/status';

const END = '2027-05-09';
const at = (days: number) => addDays(END, days);
const member = { exempt: false, endsOn: END };

describe('a membership state from its dates', () => {
  it('is pending without dues, and honorary when exempt, whatever the dates', () => {
    expect(computedState({ exempt: false, endsOn: null }, '2027-01-01', 30)).toBe('pending');
    expect(computedState({ exempt: true, endsOn: null }, '2027-01-01', 30)).toBe('honorary');
    expect(computedState({ exempt: true, endsOn: END }, at(400), 30)).toBe('honorary');
  });

  it('goes active → due soon 30 days before the end → grace after it → lapsed after the grace days', () => {
    expect(DUE_SOON_DAYS).toBe(30);
    expect(computedState(member, at(-365), 30)).toBe('active');
    expect(computedState(member, at(-31), 30)).toBe('active');
    expect(computedState(member, at(-30), 30)).toBe('due_soon');
    expect(computedState(member, at(-1), 30)).toBe('due_soon');
    expect(computedState(member, END, 30)).toBe('due_soon');
    expect(computedState(member, at(1), 30)).toBe('grace');
    expect(computedState(member, at(30), 30)).toBe('grace');
    expect(computedState(member, at(31), 30)).toBe('lapsed');
  });

  it('takes the grace days the Admin set (none: lapsed the day after the end)', () => {
    expect(DEFAULT_GRACE_DAYS).toBe(30);
    expect(computedState(member, at(1), 0)).toBe('lapsed');
    expect(computedState(member, at(60), 60)).toBe('grace');
    expect(computedState(member, at(61), 60)).toBe('lapsed');
  });

  it("shows the Admin's override instead of the dates, and the dates when there is none", () => {
    expect(membershipState({ ...member, override: null }, at(31), 30)).toBe('lapsed');
    expect(membershipState({ ...member, override: 'active' }, at(31), 30)).toBe('active');
    expect(membershipState({ exempt: false, endsOn: null, override: 'honorary' }, '2027-01-01', 30)).toBe('honorary');
    expect(membershipState({ ...member, override: 'lapsed' }, at(-100), 30)).toBe('lapsed');
    expect(membershipState({ ...member, override: null }, at(5), 10)).toBe('grace');
  });
});

describe('who counts as a member', () => {
  it('counts active, due soon, in grace and honorary; not pending nor lapsed', () => {
    expect(MEMBERSHIP_STATES.filter(isCounted)).toEqual(['active', 'due_soon', 'grace', 'honorary']);
    expect(COUNTED_STATES).toEqual(['active', 'due_soon', 'grace', 'honorary']);
  });

  it('is counted until the end plus the grace days', () => {
    expect(countedUntil(END, 30)).toBe('2027-06-08');
    expect(countedUntil(END, 0)).toBe(END);
    expect(countedUntil(null, 30)).toBeNull();
  });
});

describe('overrides and labels', () => {
  it('lets an Admin force active, honorary or lapsed only', () => {
    expect(OVERRIDE_STATES).toEqual(['active', 'honorary', 'lapsed']);
  });

  it('names every state in French', () => {
    expect(STATE_LABELS).toEqual({
      pending: 'En attente',
      active: 'À jour',
      due_soon: 'À renouveler bientôt',
      grace: 'En délai de grâce',
      lapsed: 'Expirée',
      honorary: "Membre d'honneur / exempté",
    });
  });
});

describe('the state on any day, from the history alone', () => {
  const periods = [
    { start: '2025-03-01', end: '2026-02-28' },
    { start: '2026-03-01', end: '2027-02-28' },
    // Lapsed, then joined again.
    { start: '2027-09-01', end: '2028-08-31' },
  ];
  const history = { exempt: false, override: null, since: '2025-02-20', periods };

  it('is pending before the membership existed or before its first period began', () => {
    expect(stateOn(history, '2025-02-19', 30)).toBe('pending');
    expect(stateOn(history, '2025-02-20', 30)).toBe('pending');
    expect(stateOn(history, '2025-02-28', 30)).toBe('pending');
    expect(stateOn({ ...history, periods: [] }, '2026-01-01', 30)).toBe('pending');
  });

  it('follows the periods begun by that day, a renewal included', () => {
    expect(stateOn(history, '2025-03-01', 30)).toBe('active');
    expect(stateOn(history, '2026-02-10', 30)).toBe('due_soon');
    expect(stateOn(history, '2026-03-01', 30)).toBe('active');
    expect(stateOn(history, '2027-03-15', 30)).toBe('grace');
    expect(stateOn(history, '2027-08-31', 30)).toBe('lapsed');
    expect(stateOn(history, '2027-09-01', 30)).toBe('active');
    expect(stateOn(history, '2028-08-31', 30)).toBe('due_soon');
  });

  it('takes the latest end whatever the order of the periods', () => {
    expect(stateOn({ ...history, periods: [...periods].reverse() }, '2026-06-01', 30)).toBe('active');
    expect(stateOn({ ...history, periods: [periods[1], periods[0]] }, '2026-06-01', 30)).toBe('active');
  });

  it('applies an exemption or an override from the day the membership was entered', () => {
    expect(stateOn({ ...history, exempt: true }, '2025-02-19', 30)).toBe('pending');
    expect(stateOn({ ...history, exempt: true }, '2025-02-20', 30)).toBe('honorary');
    expect(stateOn({ ...history, override: 'lapsed' }, '2026-06-01', 30)).toBe('lapsed');
    expect(stateOn({ ...history, override: 'active', periods: [] }, '2025-02-19', 30)).toBe('pending');
    expect(stateOn({ ...history, override: 'active', periods: [] }, '2025-02-20', 30)).toBe('active');
  });

  it('counts dues paid before the entry was typed from their period', () => {
    const late = { ...history, since: '2026-06-01' };
    expect(stateOn(late, '2025-03-01', 30)).toBe('active');
    expect(stateOn({ ...late, override: 'honorary' }, '2025-03-01', 30)).toBe('honorary');
    expect(stateOn({ ...late, exempt: true }, '2025-02-28', 30)).toBe('pending');
  });
});
