import { describe, expect, it } from 'vitest';
import { figuresOf, givesMonthly, monthlySince, summarize, yearOf } from '~/domain/people/figures';
import { emailKey, nameKey, phoneKey, plainWords, postalKey, sortName } from '~/domain/people/keys';
import { mergeRefusal, pairKey, plannedMove, reasonsBetween, suggestPairs, undoBlocker, type Facet } from '~/domain/people/rules';

/** The donors register's pure parts (ADR 038): keys, figures, duplicate rules, what a merge moves and when it may be taken back. */
const facet = (personId: string, over: Partial<Facet> = {}): Facet => ({ personId, email: `${personId}@x.org`, name: '', postalCode: '', phone: '', ...over });

describe('keys', () => {
  it('compares addresses without case, names whatever their order, accents and punctuation', () => {
    expect(emailKey('Awa@Example.ORG')).toBe('awa@example.org');
    expect(emailKey(null)).toBe('');
    expect(emailKey(undefined)).toBe('');
    expect(plainWords('Élodie-Anne  O’Brien')).toEqual(['elodie', 'anne', 'o', 'brien']);
    expect(nameKey('DIALLO Awa')).toBe('awa diallo');
    expect(nameKey('Awa  Diallo')).toBe('awa diallo');
    expect(nameKey('Awa')).toBe('');
    expect(nameKey(null)).toBe('');
    expect(sortName('  Élise Dupont ')).toBe('elise dupont');
    expect(postalKey('75 011')).toBe('75011');
    expect(postalKey('sw1a 1aa')).toBe('SW1A1AA');
    expect(postalKey(undefined)).toBe('');
  });

  it('reads a phone by its digits, French numbers in national form; too short is no phone', () => {
    expect(phoneKey('+33 6 12 34 56 78')).toBe('0612345678');
    expect(phoneKey('0033612345678')).toBe('0612345678');
    expect(phoneKey('06 12 34 56 78')).toBe('0612345678');
    expect(phoneKey('+221 77 123 45 67')).toBe('221771234567');
    expect(phoneKey('33123456789012')).toBe('33123456789012');
    expect(phoneKey('1234567')).toBe('');
    expect(phoneKey('12345678')).toBe('12345678');
    expect(phoneKey(null)).toBe('');
  });
});

describe('figures', () => {
  const gifts = [
    { eurCents: 2000, succeededAt: '2025-03-01T10:00:00.000Z', frequency: 'once' },
    { eurCents: 1500, succeededAt: '2026-06-01T10:00:00.000Z', frequency: 'monthly' },
    { eurCents: 3049, succeededAt: '2026-02-01T10:00:00.000Z', frequency: 'once' },
    { eurCents: 1500, succeededAt: '2026-05-01T10:00:00.000Z', frequency: 'monthly' },
  ];
  it('sums counted gifts into count, total, largest, first, last, last monthly and per year', () => {
    const { figures, years } = summarize(gifts);
    expect(figures).toEqual({ gifts: 4, total_cents: 8049, largest_cents: 3049, first_gift_at: '2025-03-01T10:00:00.000Z', last_gift_at: '2026-06-01T10:00:00.000Z', last_monthly_at: '2026-06-01T10:00:00.000Z' });
    expect([...years]).toEqual([[2025, { gifts: 1, cents: 2000 }], [2026, { gifts: 3, cents: 6049 }]]);
    expect(summarize([])).toEqual({ figures: { gifts: 0, total_cents: 0, largest_cents: 0, first_gift_at: null, last_gift_at: null, last_monthly_at: null }, years: new Map() });
    expect(summarize([...gifts].reverse()).figures).toEqual(figures);
  });

  it('is monthly while the last monthly gift is at most 31 days old', () => {
    const now = new Date('2026-07-02T10:00:00.000Z');
    expect(monthlySince(now)).toBe('2026-06-01T10:00:00.000Z');
    expect(givesMonthly('2026-06-01T10:00:00.000Z', now)).toBe(true);
    expect(givesMonthly('2026-06-01T09:59:59.999Z', now)).toBe(false);
    expect(givesMonthly(null, now)).toBe(false);
    expect(yearOf(new Date('2026-12-31T23:30:00.000Z'))).toBe(2026);
  });

  it('reads the stored figures and the two years', () => {
    const stored = { gifts: 2, total_cents: 700, largest_cents: 500, first_gift_at: 'a', last_gift_at: 'b', last_monthly_at: null };
    expect(figuresOf(stored, { thisYear: 500, lastYear: null }, new Date())).toEqual({ gifts: 2, totalCents: 700, largestCents: 500, firstGiftAt: 'a', lastGiftAt: 'b', thisYearCents: 500, lastYearCents: 0, monthly: false });
    expect(figuresOf(stored, { thisYear: null, lastYear: 200 }, new Date())).toMatchObject({ thisYearCents: 0, lastYearCents: 200 });
  });
});

describe('duplicate rules', () => {
  it('a name and a postal code together, or a phone; never within one record', () => {
    expect(reasonsBetween(facet('a', { name: 'Awa Diallo', postalCode: '75011' }), facet('b', { name: 'diallo awa', postalCode: '75 011' }))).toEqual(['name_postal']);
    expect(reasonsBetween(facet('a', { name: 'Awa Diallo', postalCode: '75011' }), facet('b', { name: 'Awa Diallo', postalCode: '75012' }))).toEqual([]);
    expect(reasonsBetween(facet('a', { name: 'Awa Diallo' }), facet('b', { name: 'Awa Diallo' }))).toEqual([]);
    expect(reasonsBetween(facet('a', { name: 'Awa', postalCode: '75011' }), facet('b', { name: 'Awa', postalCode: '75011' }))).toEqual([]);
    expect(reasonsBetween(facet('a', { phone: '+33612345678' }), facet('b', { phone: '06 12 34 56 78' }))).toEqual(['phone']);
    expect(reasonsBetween(facet('a', { phone: '123' }), facet('b', { phone: '123' }))).toEqual([]);
    expect(reasonsBetween(facet('a', { name: 'A B', postalCode: '1', phone: '0612345678' }), facet('b', { name: 'B A', postalCode: '1', phone: '0612345678' }))).toEqual(['name_postal', 'phone']);
    expect(reasonsBetween(facet('a', { phone: '0612345678' }), facet('a', { phone: '0612345678' }))).toEqual([]);
  });

  it('pairs once with all their reasons, smaller id first, most reasons first, dismissed ones left out', () => {
    const facets = [facet('c', { phone: '0612345678' }), facet('b', { phone: '0612345678', name: 'A B', postalCode: '1' }), facet('a', { name: 'A B', postalCode: '1' }), facet('d', { name: 'A B', postalCode: '1', phone: '0612345678' })];
    const pairs = suggestPairs(facets);
    expect(pairs[0]).toEqual({ a: 'b', b: 'd', reasons: ['name_postal', 'phone'] });
    expect(pairs.map((p) => `${p.a}${p.b}`)).toEqual(['bd', 'ab', 'ad', 'bc', 'cd']);
    expect(suggestPairs(facets, new Set(['b|d', 'a|b'])).map((p) => `${p.a}${p.b}`)).toEqual(['ad', 'bc', 'cd']);
    expect(suggestPairs([facet('a', { phone: '0612345678' }), facet('b', { phone: '0612345678' }), facet('b', { phone: '0612345678', email: 'x' })])).toEqual([{ a: 'a', b: 'b', reasons: ['phone'] }]);
    expect(pairKey('b', 'a')).toEqual(['a', 'b']);
    expect(pairKey('a', 'b')).toEqual(['a', 'b']);
  });
});

describe('merge', () => {
  it('moves addresses, notes and tags; adds only the tags the survivor lacked', () => {
    expect(plannedMove(['b@x'], ['n1'], ['t1', 't2'], ['t2', 't3'])).toEqual({ emails: ['b@x'], notes: ['n1'], tags: ['t1', 't2'], addedTags: ['t1'] });
  });

  it('merges two live records, not one', () => {
    const live = (id: string) => ({ id, merged_into: null });
    expect(mergeRefusal(live('a'), live('b'))).toBeNull();
    expect(mergeRefusal(live('a'), live('a'))).toBe('same');
    expect(mergeRefusal(undefined, live('b'))).toBe('missing');
    expect(mergeRefusal(live('a'), undefined)).toBe('missing');
    expect(mergeRefusal({ id: 'a', merged_into: 'z' }, live('b'))).toBe('already_merged');
    expect(mergeRefusal(live('a'), { id: 'b', merged_into: 'z' })).toBe('already_merged');
  });

  it('is taken back while nothing new depends on it', () => {
    const moved = plannedMove(['b@x'], [], [], []);
    const open = { undone_at: null };
    const emails = new Set(['a@x', 'b@x']);
    expect(undoBlocker(open, moved, 0, emails, [])).toBeNull();
    expect(undoBlocker({ undone_at: 'x' }, moved, 0, emails, [])).toBe('undone');
    expect(undoBlocker(open, moved, 1, emails, [])).toBe('later_merge');
    expect(undoBlocker(open, moved, 0, new Set(['a@x']), [])).toBe('emails_moved');
    expect(undoBlocker(open, moved, 0, emails, [['a@x', 'b@x']])).toBe('joint_receipt');
    expect(undoBlocker(open, moved, 0, emails, [['a@x'], ['b@x', 'b@x']])).toBeNull();
  });
});
