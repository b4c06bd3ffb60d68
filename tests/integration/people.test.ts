import { afterAll, beforeEach, expect, it } from 'vitest';
import { summarize } from '~/domain/people/figures';
import { listPeople, getPerson, personOfEmail, type ListQuery } from '~/domain/people/register.server';
import { foldIn } from '~/domain/people/sync.server';
import { suggestedPairs, dismissPair } from '~/domain/people/duplicates.server';
import { countsAsMoney } from '~/domain/means/counted';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { gift, member, subscriber } from '../support/people';

/**
 * The donors register (issue 44, ADR 038): one record per person over the addresses the gifts,
 * members and subscribers carry; the figures against the ledger (refunds, lost disputes, other
 * currencies, gifts not in money, dues); the duplicate rules.
 */
const NOW = new Date('2026-06-15T12:00:00.000Z');
const Q: ListQuery = { sort: 'name', desc: false, page: 1, donorsOnly: true, searchEmails: true };
const ACTOR = { id: 'u1', name: 'Admin' };

describeEachDialect('donors register on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    await t?.destroy();
    t = await createTestDb(dialect);
  });
  afterAll(async () => t?.destroy());

  it('one record per address whatever its case; the figures are the ledger’s counted gifts, refunds, lost disputes, dues and gifts in kind left out', async () => {
    const A = 'Awa@Example.org';
    await gift(t.db, 'a1', A, '2025-03-01T10:00:00.000Z', { eur_cents: 2000, amount_minor: 2000 });
    await gift(t.db, 'a2', 'awa@example.org', '2026-02-01T10:00:00.000Z', { eur_cents: 3049, amount_minor: 2000000, currency: 'XOF' });
    await gift(t.db, 'a3', 'awa@example.org', '2026-06-01T10:00:00.000Z', { eur_cents: 1500, frequency: 'monthly' });
    // Left out: refunded (a lost dispute of the whole amount is a refund), on its way, not in money, dues, euros unknown.
    await gift(t.db, 'a4', A, '2026-04-01T10:00:00.000Z', { eur_cents: 90000, status: 'refunded' });
    await gift(t.db, 'a5', A, '2026-04-02T10:00:00.000Z', { eur_cents: 70000, status: 'processing' });
    await gift(t.db, 'a6', A, '2026-04-03T10:00:00.000Z', { eur_cents: 80000, provider: 'in_kind' });
    await gift(t.db, 'a7', A, '2026-04-04T10:00:00.000Z', { eur_cents: 60000, purpose: 'dues' });
    await gift(t.db, 'a8', A, '2026-04-05T10:00:00.000Z', { eur_cents: null });
    await gift(t.db, 'b1', 'bob@example.org', '2024-12-31T23:30:00.000Z', { eur_cents: 10000 });

    const { rows, total } = await listPeople(t.db, Q, NOW);
    expect(total).toBe(2);
    const awa = rows.find((r) => r.name === 'awa@example.org')!;
    expect(awa).toMatchObject({ gifts: 3, totalCents: 6549, largestCents: 3049, firstGiftAt: '2025-03-01T10:00:00.000Z', lastGiftAt: '2026-06-01T10:00:00.000Z', thisYearCents: 4549, lastYearCents: 2000, monthly: true });
    expect(rows.find((r) => r.name === 'bob@example.org')).toMatchObject({ gifts: 1, thisYearCents: 0, lastYearCents: 0, monthly: false });

    // The same figures as the ledger's own rule of what counts, summed apart.
    const counted = await t.db.selectFrom('donations').select(['eur_cents', 'succeeded_at', 'frequency']).where(countsAsMoney()).where('purpose', '=', 'gift').where((eb) => eb(eb.fn('lower', ['donor_email']), '=', 'awa@example.org')).execute();
    const expected = summarize(counted.map((g) => ({ eurCents: Number(g.eur_cents), succeededAt: g.succeeded_at!, frequency: g.frequency })));
    expect(awa.totalCents).toBe(expected.figures.total_cents);
    expect(awa.thisYearCents).toBe(expected.years.get(2026)!.cents);

    // A refund later (the ledger raises updated_at): the next read counts it.
    await t.db.updateTable('donations').set({ status: 'refunded', updated_at: '2026-06-15T11:00:00.000Z' }).where('id', '=', 'a2').execute();
    const after = (await listPeople(t.db, Q, NOW)).rows.find((r) => r.name === 'awa@example.org')!;
    expect(after).toMatchObject({ gifts: 2, totalCents: 3500, largestCents: 2000, thisYearCents: 1500 });
    // Monthly: only while the last monthly gift is less than 31 days old.
    expect((await listPeople(t.db, Q, new Date('2026-07-15T12:00:00.000Z'))).rows.find((r) => r.name === 'awa@example.org')!.monthly).toBe(false);
  });

  it('members and subscribers have records too; the name comes with the first source that has one; search, sort and pages', async () => {
    await subscriber(t.db, 's1', 'nora@example.org');
    await member(t.db, { first_name: 'Omar', last_name: 'Sy', email: 'omar@example.org' });
    await gift(t.db, 'n1', 'nora@example.org', '2026-01-10T10:00:00.000Z', { donor_name: 'Nora Benali', eur_cents: 700 });
    for (let i = 0; i < 60; i++) await gift(t.db, `g${i}`, `d${i}@example.org`, '2026-01-02T10:00:00.000Z', { donor_name: `Donor ${String(i).padStart(2, '0')}`, eur_cents: 100 + i });
    expect((await listPeople(t.db, Q, NOW)).total).toBe(61);
    expect((await listPeople(t.db, { ...Q, donorsOnly: false }, NOW)).total).toBe(62);
    const nora = await getPerson(t.db, (await personOfEmail(t.db, 'nora@example.org'))!, NOW);
    expect(nora).toMatchObject({ name: 'Nora Benali', gifts: 1 });
    expect((await listPeople(t.db, { ...Q, q: 'BENALI' }, NOW)).rows.map((r) => r.name)).toEqual(['Nora Benali']);
    expect((await listPeople(t.db, { ...Q, q: 'd7@example' }, NOW)).rows.map((r) => r.name)).toEqual(['Donor 07']);
    expect((await listPeople(t.db, { ...Q, q: '100%' }, NOW)).total).toBe(0);
    // An Éditeur's search looks in the names only, accents and case aside.
    expect((await listPeople(t.db, { ...Q, q: 'd7@example', searchEmails: false }, NOW)).total).toBe(0);
    expect((await listPeople(t.db, { ...Q, q: 'bénali', searchEmails: false }, NOW)).rows.map((r) => r.name)).toEqual(['Nora Benali']);
    const top = await listPeople(t.db, { ...Q, sort: 'this_year', desc: true }, NOW);
    expect(top.rows[0]).toMatchObject({ name: 'Nora Benali', thisYearCents: 700 });
    expect(top.rows[1]).toMatchObject({ name: 'Donor 59', thisYearCents: 159 });
    const page2 = await listPeople(t.db, { ...Q, page: 2 }, NOW);
    expect(page2.rows.map((r) => r.name)).toEqual(['Donor 50', 'Donor 51', 'Donor 52', 'Donor 53', 'Donor 54', 'Donor 55', 'Donor 56', 'Donor 57', 'Donor 58', 'Donor 59', 'Nora Benali']);
    // A fold with nothing new reads nothing.
    expect(await foldIn(t.db, NOW)).toBe(0);
  });

  it('suggests records sharing a name and postal code, or a phone; not other ones; a dismissed pair is not suggested again', async () => {
    const tax = (name: string, postalCode: string) => JSON.stringify({ kind: 'individual', name, company: '', siren: '', address: '1 rue', postalCode, city: 'Paris', country: 'France' });
    await gift(t.db, 'x1', 'awa.diallo@example.org', '2026-01-01T10:00:00.000Z', { tax_details: tax('Awa Diallo', '75011') });
    await gift(t.db, 'x2', 'awa@work.example', '2026-01-02T10:00:00.000Z', { tax_details: tax('DIALLO Awa', '75 011') });
    await gift(t.db, 'x3', 'awa.d@example.net', '2026-01-03T10:00:00.000Z', { tax_details: tax('Awa Diallo', '69001') });
    await member(t.db, { first_name: 'Omar', last_name: 'Sy', email: 'omar@example.org', phone: '+33 6 12 34 56 78', postal_code: '13001' });
    await member(t.db, { first_name: 'O.', last_name: 'Sy', email: 'osy@example.org', phone: '06 12 34 56 78', postal_code: '13002' });
    const id = async (e: string) => (await personOfEmail(t.db, e))!;
    await foldIn(t.db, NOW);
    const pairs = await suggestedPairs(t.db, NOW);
    const [awa1, awa2, omar1, omar2] = [await id('awa.diallo@example.org'), await id('awa@work.example'), await id('omar@example.org'), await id('osy@example.org')];
    const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
    expect(new Map(pairs.map((p) => [`${p.a}|${p.b}`, p.reasons]))).toEqual(new Map([[key(awa1, awa2), ['name_postal']], [key(omar1, omar2), ['phone']]]));
    await dismissPair(t.db, ACTOR, awa2, awa1, NOW);
    expect((await suggestedPairs(t.db, NOW)).map((p) => p.reasons)).toEqual([['phone']]);
  });
});

