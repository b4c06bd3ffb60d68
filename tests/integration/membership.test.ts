import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDuesPayment, MembershipNotFoundError, revokeDuesPayment } from '~/domain/membership/dues.server';
import { DEFAULT_MEMBERSHIP_SETTINGS, type MemberInput } from '~/domain/membership/forms';
import { createMember, duesHistory, getMember, listMembers, membersUpToDate, setOverride } from '~/domain/membership/register.server';
import { getMembershipSettings, saveMembershipSettings } from '~/domain/membership/settings.server';
import { createType, getType, listTypes, updateType } from '~/domain/membership/types.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { memberInput, membershipType } from '../support/membership';

const ADMIN = { id: 'u-admin', name: 'Alice Admin' };

const typeInput = (over: Record<string, string> = {}) => membershipType({ description_fr: 'Vote à l’assemblée générale', description_en: 'Votes at the general assembly', description_es: 'Vota en la asamblea general', ...over });
const person = (typeId: string, over: Partial<MemberInput> = {}) => memberInput(typeId, { email: 'Awa@Example.org', address: '1 rue de la Paix', postal_code: '75002', ...over });

/** Membership data on both databases: types, the register, dues applied by the payment pipeline's subscriber (ADR 021). */
describeEachDialect('membership on %s', (dialect) => {
  let t: TestDb;
  let anniversary: string;
  let calendar: string;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    anniversary = await createType(t.db, ADMIN, typeInput());
    calendar = await createType(t.db, ADMIN, typeInput({ name_fr: 'Membre bienfaiteur', dues: '100', period_model: 'calendar', rollover: '2026-10-01' }));
  });
  afterAll(() => t?.destroy());

  const pay = (membershipId: string, paymentId: string, paidAt: string, amountCents = 3000) => applyDuesPayment(t.db, { membershipId, paymentId, amountCents, paidAt, method: 'card' });
  const auditOf = (action: string) => t.db.selectFrom('audit_log').select(['user_name', 'target', 'details']).where('action', '=', action).orderBy('at').execute();

  describe('types', () => {
    it('are listed in the order they were made, with their three languages, rule and switch', async () => {
      const types = await listTypes(t.db);
      expect(types.map((x) => [x.translations.fr.name, x.duesCents, x.rule, x.taxDeductible])).toEqual([
        ['Membre actif', 3000, { model: 'anniversary', rollover: '' }, false],
        ['Membre bienfaiteur', 10000, { model: 'calendar', rollover: '10-01' }, false],
      ]);
      expect(types[0].translations.es).toEqual({ name: 'Miembro activo', description: 'Vota en la asamblea general' });
      expect(await auditOf('membership.type.create')).toHaveLength(2);
    });

    it('are changed by an Admin, audited; an unknown one is not', async () => {
      const id = await createType(t.db, ADMIN, typeInput({ name_fr: 'Membre d’honneur', dues: '0' }));
      expect(await updateType(t.db, ADMIN, id, typeInput({ name_fr: 'Membre d’honneur', dues: '0', tax_deductible: 'on' }))).toBe(true);
      expect(await getType(t.db, id)).toMatchObject({ duesCents: 0, taxDeductible: true });
      expect(await updateType(t.db, ADMIN, 'nope', typeInput())).toBe(false);
      expect((await auditOf('membership.type.update')).map((a) => [a.user_name, a.target, JSON.parse(a.details).taxDeductible])).toEqual([['Alice Admin', 'Membre d’honneur', true]]);
    });
  });

  describe('the register', () => {
    it('numbers members in order, keeps e-mails in lower case, and audits an entry by staff only', async () => {
      const before = (await auditOf('membership.create')).length;
      const a = await createMember(t.db, ADMIN, person(anniversary));
      const b = await createMember(t.db, null, person(anniversary, { first_name: 'Bintou' }));
      expect(b.number).toBe(a.number + 1);
      const m = await getMember(t.db, a.id, '2026-01-01', 30);
      expect(m).toMatchObject({ number: a.number, email: 'awa@example.org', state: 'pending', endsOn: null, periods: [] });
      expect((await auditOf('membership.create')).length).toBe(before + 1);
    });

    it('refuses a member of an unknown type, writing nothing', async () => {
      const count = async () => (await t.db.selectFrom('memberships').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
      const before = Number(await count());
      await expect(createMember(t.db, ADMIN, person('no-such-type'))).rejects.toThrow(/Unknown membership type/);
      expect(Number(await count())).toBe(before);
    });
  });

  describe('applyDuesPayment', () => {
    it('activates on the first payment, for twelve months from its Paris day', async () => {
      const { id } = await createMember(t.db, null, person(anniversary));
      expect(await pay(id, 'pay-a1', '2026-03-14T23:30:00.000Z')).toEqual({ status: 'applied', period: { start: '2026-03-15', end: '2027-03-14' }, endsOn: '2027-03-14' });
      expect(await getMember(t.db, id, '2026-03-15', 30)).toMatchObject({ state: 'active', endsOn: '2027-03-14' });
      expect(await getMember(t.db, id, '2026-03-14', 30)).toMatchObject({ state: 'pending' });
      expect(await duesHistory(t.db, id)).toEqual([
        { id: expect.any(String), paymentId: 'pay-a1', method: 'card', amountCents: 3000, paidAt: '2026-03-14T23:30:00.000Z', period: { start: '2026-03-15', end: '2027-03-14' }, status: 'paid', revokedAt: null, recordedBy: null },
      ]);
    });

    it('changes nothing when the same payment is replayed', async () => {
      const { id } = await createMember(t.db, null, person(anniversary));
      await pay(id, 'pay-r1', '2026-05-01T10:00:00.000Z');
      expect(await pay(id, 'pay-r1', '2026-05-01T10:00:00.000Z')).toEqual({ status: 'replayed' });
      expect(await pay(id, 'pay-r1', '2027-04-20T10:00:00.000Z', 9999)).toEqual({ status: 'replayed' });
      expect(await duesHistory(t.db, id)).toHaveLength(1);
      expect((await getMember(t.db, id, '2026-06-01', 30))?.endsOn).toBe('2027-04-30');
    });

    it('extends an early renewal from the current end, a renewal in grace from the old end, and restarts after a lapse', async () => {
      const { id } = await createMember(t.db, null, person(anniversary));
      await pay(id, 'pay-e1', '2026-01-10T10:00:00.000Z');
      expect(await pay(id, 'pay-e2', '2026-12-01T10:00:00.000Z')).toMatchObject({ period: { start: '2027-01-10', end: '2028-01-09' } });
      // In grace (30 days after 9 January 2028).
      expect(await pay(id, 'pay-e3', '2028-02-08T10:00:00.000Z')).toMatchObject({ period: { start: '2028-01-10', end: '2029-01-09' } });
      // Lapsed: 31 days after the end.
      expect(await pay(id, 'pay-e4', '2029-02-09T10:00:00.000Z')).toMatchObject({ period: { start: '2029-02-09', end: '2030-02-08' }, endsOn: '2030-02-08' });
      expect(await getMember(t.db, id, '2029-02-01', 30)).toMatchObject({ state: 'grace' });
      expect(await getMember(t.db, id, '2029-02-09', 30)).toMatchObject({ state: 'active' });
    });

    it('counts a calendar member joined after the rollover through the end of next year; at 23:30 UTC on 31 December, the new year', async () => {
      const late = await createMember(t.db, null, person(calendar));
      expect(await pay(late.id, 'pay-c1', '2026-10-02T08:00:00.000Z', 10000)).toMatchObject({ period: { start: '2026-10-02', end: '2027-12-31' } });
      const nye = await createMember(t.db, null, person(calendar));
      expect(await pay(nye.id, 'pay-c2', '2026-12-31T23:30:00.000Z', 10000)).toMatchObject({ period: { start: '2027-01-01', end: '2027-12-31' } });
    });

    it('uses the grace days the Admin set', async () => {
      const { version } = await getMembershipSettings(t.db);
      expect(await saveMembershipSettings(t.db, ADMIN, { ...DEFAULT_MEMBERSHIP_SETTINGS, graceDays: 5 }, version)).toBe('ok');
      try {
        const { id } = await createMember(t.db, null, person(anniversary));
        await pay(id, 'pay-g1', '2026-01-10T10:00:00.000Z');
        // Ten days after the end: past 5 days of grace, so a new start.
        expect(await pay(id, 'pay-g2', '2027-01-19T10:00:00.000Z')).toMatchObject({ period: { start: '2027-01-19', end: '2028-01-18' } });
      } finally {
        const s = await getMembershipSettings(t.db);
        await saveMembershipSettings(t.db, ADMIN, DEFAULT_MEMBERSHIP_SETTINGS, s.version);
      }
    });

    it('refuses an unknown membership or a bad amount, writing nothing', async () => {
      await expect(pay('nobody', 'pay-x1', '2026-01-10T10:00:00.000Z')).rejects.toBeInstanceOf(MembershipNotFoundError);
      const { id } = await createMember(t.db, null, person(anniversary));
      await expect(pay(id, 'pay-x2', '2026-01-10T10:00:00.000Z', 12.5)).rejects.toThrow(RangeError);
      await expect(pay(id, 'pay-x3', '2026-01-10T10:00:00.000Z', -1)).rejects.toThrow(RangeError);
      expect(await t.db.selectFrom('membership_dues').select('id').where('payment_id', 'in', ['pay-x1', 'pay-x2', 'pay-x3']).execute()).toEqual([]);
      expect(await pay(id, 'pay-x4', '2026-01-10T10:00:00.000Z', 0)).toMatchObject({ status: 'applied' });
    });
  });

  describe('revokeDuesPayment', () => {
    it('gives a refunded year back and recomputes the later ones; a replay or an unknown payment changes nothing', async () => {
      const { id } = await createMember(t.db, null, person(anniversary));
      await pay(id, 'pay-v1', '2026-01-10T10:00:00.000Z');
      await pay(id, 'pay-v2', '2026-06-10T10:00:00.000Z');
      expect((await getMember(t.db, id, '2026-07-01', 30))?.endsOn).toBe('2028-01-09');
      expect(await revokeDuesPayment(t.db, { paymentId: 'pay-v1', at: '2026-07-01T10:00:00.000Z', reason: 'refunded' })).toEqual({ status: 'revoked', membershipId: id, endsOn: '2027-06-09' });
      expect(await revokeDuesPayment(t.db, { paymentId: 'pay-v1', at: '2026-07-02T10:00:00.000Z', reason: 'refunded' })).toEqual({ status: 'unchanged' });
      expect(await revokeDuesPayment(t.db, { paymentId: 'pay-none', at: '2026-07-02T10:00:00.000Z', reason: 'cancelled' })).toEqual({ status: 'unchanged' });
      const history = await duesHistory(t.db, id);
      expect(history.map((d) => [d.paymentId, d.status, d.period, d.revokedAt])).toEqual([
        ['pay-v2', 'paid', { start: '2026-06-10', end: '2027-06-09' }, null],
        ['pay-v1', 'refunded', null, '2026-07-01T10:00:00.000Z'],
      ]);
      expect(await revokeDuesPayment(t.db, { paymentId: 'pay-v2', at: '2026-07-03T10:00:00.000Z', reason: 'cancelled' })).toEqual({ status: 'revoked', membershipId: id, endsOn: null });
      expect(await getMember(t.db, id, '2026-07-04', 30)).toMatchObject({ state: 'pending', endsOn: null, periods: [] });
    });
  });
});

describeEachDialect('the register and the general assembly on %s', (dialect) => {
  let t: TestDb;
  let annual: string;
  let honorary: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestDb(dialect);
    annual = await createType(t.db, ADMIN, typeInput({ name_fr: 'Annuel', period_model: 'calendar' }));
    honorary = await createType(t.db, ADMIN, typeInput({ name_fr: 'Honneur', dues: '0' }));
    const add = async (key: string, typeId: string, over: Partial<MemberInput> = {}) => {
      ids[key] = (await createMember(t.db, null, person(typeId, { first_name: key, last_name: `Nom-${key}`, email: `${key.toLowerCase()}@example.org`, ...over }))).id;
      // Entered long before the assembly.
      await t.db.updateTable('memberships').set({ created_at: '2025-01-01T10:00:00.000Z' }).where('id', '=', ids[key]).execute();
    };
    await add('Active', annual);
    await add('Grace', annual);
    await add('Lapsed', annual);
    await add('Pending', annual);
    await add('Honor', honorary, { exempt: true, email: '' });
    await add('Soon', annual);
    await add('Struck', annual);
    await applyDuesPayment(t.db, { membershipId: ids.Active, paymentId: 'p1', amountCents: 3000, paidAt: '2026-02-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.Grace, paymentId: 'p2', amountCents: 3000, paidAt: '2025-02-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.Lapsed, paymentId: 'p3', amountCents: 3000, paidAt: '2024-02-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.Soon, paymentId: 'p4', amountCents: 3000, paidAt: '2025-02-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.Soon, paymentId: 'p5', amountCents: 3000, paidAt: '2025-12-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.Struck, paymentId: 'p6', amountCents: 3000, paidAt: '2026-01-05T10:00:00.000Z', method: 'card' });
  });
  afterAll(() => t?.destroy());

  const DAY = '2026-01-20';
  const names = (list: { firstName: string }[]) => list.map((m) => m.firstName);

  it('computes each state on the day asked, from the dues alone', async () => {
    const all = await listMembers(t.db, {}, DAY, 30);
    expect(all.map((m) => [m.firstName, m.state])).toEqual([
      ['Active', 'pending'],
      ['Grace', 'grace'],
      ['Lapsed', 'lapsed'],
      ['Pending', 'pending'],
      ['Honor', 'honorary'],
      ['Soon', 'active'],
      ['Struck', 'active'],
    ]);
    expect((await listMembers(t.db, {}, '2026-12-15', 30)).find((m) => m.firstName === 'Soon')?.state).toBe('due_soon');
  });

  it('filters by state, type, year, expiry within 30 days and search', async () => {
    expect(names(await listMembers(t.db, { state: 'grace' }, DAY, 30))).toEqual(['Grace']);
    expect(names(await listMembers(t.db, { typeId: honorary }, DAY, 30))).toEqual(['Honor']);
    expect(names(await listMembers(t.db, { year: 2024 }, DAY, 30))).toEqual(['Lapsed']);
    expect(names(await listMembers(t.db, { year: 2025 }, DAY, 30))).toEqual(['Grace', 'Soon']);
    expect(names(await listMembers(t.db, { expiringSoon: true }, '2026-12-10', 30))).toEqual(['Active', 'Soon', 'Struck']);
    expect(names(await listMembers(t.db, { expiringSoon: true }, '2026-11-30', 30))).toEqual([]);
    expect(names(await listMembers(t.db, { expiringSoon: true }, '2027-01-01', 30))).toEqual([]);
    expect(names(await listMembers(t.db, { q: 'nom-gra' }, DAY, 30))).toEqual(['Grace']);
    expect(names(await listMembers(t.db, { q: 'HONOR NOM' }, DAY, 30))).toEqual(['Honor']);
    expect(names(await listMembers(t.db, { q: 'soon@example' }, DAY, 30))).toEqual(['Soon']);
    expect(names(await listMembers(t.db, { q: '%' }, DAY, 30))).toEqual([]);
    const number = (await getMember(t.db, ids.Pending, DAY, 30))!.number;
    expect(names(await listMembers(t.db, { q: String(number) }, DAY, 30))).toContain('Pending');
  });

  it('counts for the general assembly the members up to date on its day, in grace and honorary, by name', async () => {
    expect(names(await membersUpToDate(t.db, DAY, 30))).toEqual(['Grace', 'Honor', 'Soon', 'Struck']);
    expect(names(await membersUpToDate(t.db, '2026-03-01', 30))).toEqual(['Active', 'Honor', 'Soon', 'Struck']);
    expect(names(await membersUpToDate(t.db, '2024-06-01', 30))).toEqual(['Lapsed']);
    expect(names(await membersUpToDate(t.db, '2023-06-01', 30))).toEqual([]);
  });

  it("applies an Admin's override with its reason, audited, until cleared", async () => {
    expect(await setOverride(t.db, ADMIN, ids.Struck, { state: 'lapsed', reason: 'Radiation votée en CA' })).toBe(true);
    expect(await getMember(t.db, ids.Struck, DAY, 30)).toMatchObject({ state: 'lapsed', override: 'lapsed', overrideReason: 'Radiation votée en CA', overrideBy: 'Alice Admin' });
    expect(names(await membersUpToDate(t.db, DAY, 30))).not.toContain('Struck');
    expect(await setOverride(t.db, ADMIN, ids.Struck, null)).toBe(true);
    expect(await getMember(t.db, ids.Struck, DAY, 30)).toMatchObject({ state: 'active', override: null, overrideReason: '', overrideBy: null });
    expect(await setOverride(t.db, ADMIN, 'nobody', null)).toBe(false);
    const log = await t.db.selectFrom('audit_log').select(['action', 'details']).where('action', 'like', 'membership.override%').orderBy('at').execute();
    expect(log.map((l) => [l.action, JSON.parse(l.details)])).toEqual([
      ['membership.override', { id: ids.Struck, state: 'lapsed', reason: 'Radiation votée en CA' }],
      ['membership.override.clear', { id: ids.Struck }],
    ]);
  });
});
