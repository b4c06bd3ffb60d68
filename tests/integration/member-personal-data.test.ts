import { afterAll, beforeAll, expect, it } from 'vitest';
import { donorExportCsv, donorRef, eraseDonorData, exportDonorData } from '~/domain/donors/personal-data.server';
import { mailMemberCard } from '~/domain/membership/card.server';
import { applyDuesPayment, revokeDuesPayment } from '~/domain/membership/dues.server';
import { ERASED_NAME, purgeLapsedMembers } from '~/domain/membership/personal-data.server';
import { createMember, setOverride } from '~/domain/membership/register.server';
import { saveMembershipSettings, getMembershipSettings } from '~/domain/membership/settings.server';
import { createType } from '~/domain/membership/types.server';
import { pruneHourly } from '../../server/runtime-hooks';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { memberInput, membershipType } from '../support/membership';

const ADMIN = { id: 'u1', name: 'Alice Admin' };
const AWA = 'awa.member@example.org';

/** A member's data in the donor's export, erasure and retention (ADR 021, ADR 013), on both databases. */
describeEachDialect('a member’s personal data on %s', (dialect) => {
  let t: TestDb;
  let type: string;
  const ids: Record<string, string> = {};
  const row = (id: string) => t.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestDb(dialect);
    type = await createType(t.db, ADMIN, membershipType({ name_fr: 'Membre actif' }));
    ids.awa = (await createMember(t.db, null, memberInput(type, { first_name: 'Awa', last_name: 'Ndoye', email: 'Awa.Member@example.org', phone: '+33 6 00 00 00 01' }))).id;
    await applyDuesPayment(t.db, { membershipId: ids.awa, paymentId: 'awa-1', amountCents: 3000, paidAt: '2026-02-01T10:00:00.000Z', method: 'card' });
    await applyDuesPayment(t.db, { membershipId: ids.awa, paymentId: 'awa-2', amountCents: 2500, paidAt: '2026-02-03T10:00:00.000Z', method: 'cheque' });
    await revokeDuesPayment(t.db, { paymentId: 'awa-2', at: '2026-02-04T10:00:00.000Z', reason: 'refunded' });
    await setOverride(t.db, ADMIN, ids.awa, { state: 'active', reason: 'Validée par Awa Ndoye elle-même au bureau' });
    await mailMemberCard({ db: t.db, env: { SMTP_URL: '', MAIL_FROM: '' }, publicUrl: 'https://fondation.example.org' }, ids.awa);
    ids.other = (await createMember(t.db, null, memberInput(type, { first_name: 'Omar', last_name: 'Sy', email: 'omar@example.org' }))).id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('exports the memberships under the address with their dues and reminders, as JSON and CSV', async () => {
    const x = await exportDonorData(t.db, AWA);
    expect(x.memberships).toHaveLength(1);
    expect(x.memberships[0]).toMatchObject({
      number: 1,
      type: 'Membre actif',
      firstName: 'Awa',
      lastName: 'Ndoye',
      email: 'awa.member@example.org',
      phone: '+33 6 00 00 00 01',
      address: '12 rue des Lilas',
      override: { state: 'active', reason: 'Validée par Awa Ndoye elle-même au bureau' },
      endsOn: '2027-01-31',
    });
    expect(x.memberships[0].dues.map((d) => [d.amount, d.method, d.status, d.periodStart, d.periodEnd])).toEqual([
      ['30.00', 'card', 'paid', '2026-02-01', '2027-01-31'],
      ['25.00', 'cheque', 'refunded', null, null],
    ]);
    const csv = donorExportCsv(x);
    expect(csv).toContain('"membership";"1";');
    expect(csv).toContain('"Awa Ndoye"');
    expect(csv).toContain('"membership_dues";"1";"2026-02-01T10:00:00.000Z";"30.00";"EUR";"30.00";"card";"paid"');
    expect((await exportDonorData(t.db, 'omar@example.org')).memberships.map((m) => m.firstName)).toEqual(['Omar']);
    expect((await exportDonorData(t.db, 'nobody@example.org')).memberships).toEqual([]);
  });

  it('erasure anonymises the membership and keeps its number, type, dates and dues; mails and audit lines no longer name the member', async () => {
    expect(await t.db.selectFrom('mail_outbox').select('id').where('to', '=', 'awa.member@example.org').execute()).toHaveLength(1);
    expect((await eraseDonorData(t.db, AWA, { id: null, name: donorRef(AWA) })).ok).toBe(true);
    const m = await row(ids.awa);
    expect(m).toMatchObject({ number: 1, type_id: type, first_name: '', last_name: ERASED_NAME, email: '', phone: '', address: '', postal_code: '', city: '', country: '', override_reason: '', state_override: 'active', ends_on: '2027-01-31' });
    const dues = await t.db.selectFrom('membership_dues').select(['amount_cents', 'status']).where('membership_id', '=', ids.awa).orderBy('paid_at').execute();
    expect(dues.map((d) => [Number(d.amount_cents), d.status])).toEqual([
      [3000, 'paid'],
      [2500, 'refunded'],
    ]);
    expect(await t.db.selectFrom('mail_outbox').select('id').where('to', '=', 'awa.member@example.org').execute()).toEqual([]);
    const audit = await t.db.selectFrom('audit_log').select(['target', 'details']).execute();
    expect(audit.filter((a) => `${a.target} ${a.details}`.includes('Ndoye'))).toEqual([]);
    expect((await exportDonorData(t.db, AWA)).memberships).toEqual([]);
    // Another member is left alone.
    expect(await row(ids.other)).toMatchObject({ first_name: 'Omar', email: 'omar@example.org' });
  });

  it('the hourly job anonymises lapsed members past the retention set in the settings, and no one else', async () => {
    const add = async (first: string, over: Parameters<typeof memberInput>[1] = {}, paidAt?: string) => {
      const { id } = await createMember(t.db, null, memberInput(type, { first_name: first, email: `${first.toLowerCase()}@example.org`, ...over }));
      if (paidAt) await applyDuesPayment(t.db, { membershipId: id, paymentId: `pay-${first}`, amountCents: 3000, paidAt, method: 'card' });
      return id;
    };
    // Ends 31 Jan 2021 (anniversary), lapsed 3 March 2021 with 30 days of grace: past 3 years.
    ids.old = await add('Ancien', {}, '2020-02-01T10:00:00.000Z');
    // Lapsed 2 years ago only.
    const recentPay = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString();
    ids.recent = await add('Recent', {}, recentPay);
    ids.honorary = await add('Honneur', { exempt: true });
    await t.db.updateTable('memberships').set({ created_at: '2015-01-01T10:00:00.000Z' }).where('id', '=', ids.honorary).execute();
    await t.db.updateTable('memberships').set({ created_at: '2015-01-01T10:00:00.000Z' }).where('id', '=', ids.other).execute();
    await t.db.insertInto('mail_outbox').values({ id: 'mail-old', to: 'ancien@example.org', subject: 'Rappel', text: 'Bonjour', html: '<p>Bonjour</p>', created_at: '2021-01-01T10:00:00.000Z', error: null, sent_at: '2021-01-01T10:00:00.000Z' }).execute();

    await pruneHourly(t.db, 365);
    expect((await row(ids.old)).last_name).toBe(ERASED_NAME);
    // Never paid, entered in 2015: an abandoned entry, anonymised too.
    expect((await row(ids.other)).last_name).toBe(ERASED_NAME);
    expect((await row(ids.recent)).first_name).toBe('Recent');
    expect((await row(ids.honorary)).first_name).toBe('Honneur');
    expect(await t.db.selectFrom('mail_outbox').select('id').where('id', '=', 'mail-old').execute()).toEqual([]);
    const audited = await t.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'membership.retention').execute();
    expect(audited.map((a) => JSON.parse(a.details).numbers.sort())).toEqual([[2, 3]]);

    // Nothing more to do on the next run; a longer retention keeps the recent one, a shorter one takes it.
    expect(await purgeLapsedMembers(t.db)).toBe(0);
    const s = await getMembershipSettings(t.db);
    const { version, ...settings } = s;
    expect(await saveMembershipSettings(t.db, ADMIN, { ...settings, retentionYears: 1 }, version)).toBe('ok');
    expect(await purgeLapsedMembers(t.db)).toBe(1);
    expect((await row(ids.recent)).last_name).toBe(ERASED_NAME);
  });
});
