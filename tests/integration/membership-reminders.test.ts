import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember, setOverride } from '~/domain/membership/register.server';
import { markPosted, membershipOfRenewalToken, reminderLog, renewalToken, runMembershipReminders, type ReminderDeps } from '~/domain/membership/reminders.server';
import { createType } from '~/domain/membership/types.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { memberInput, membershipType } from '../support/membership';
import { startSmtp } from '../support/smtp';

const SECRET = 'reminders-test-secret-'.padEnd(48, 's');
const ADMIN = { id: 'u1', name: 'Alice Admin' };

/** The renewal reminders' job on both databases: each step once across two instances and a restart, in the member's language (ADR 021). */
describeEachDialect('membership reminders on %s', (dialect) => {
  let t: TestDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let deps: ReminderDeps;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestDb(dialect);
    smtp = await startSmtp();
    deps = { db: t.db, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }, publicUrl: 'https://fondation.example.org', secret: SECRET };
    const type = await createType(t.db, ADMIN, membershipType({ name_en: 'Active member', period_model: 'calendar' }));
    const add = async (key: string, over: Parameters<typeof memberInput>[1], paid = true) => {
      ids[key] = (await createMember(t.db, null, memberInput(type, over))).id;
      if (paid) await applyDuesPayment(t.db, { membershipId: ids[key], paymentId: `pay-${key}`, amountCents: 3000, paidAt: '2026-02-01T10:00:00.000Z', method: 'card' });
    };
    await add('mailed', { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.org', language: 'en' });
    await add('paper', { first_name: 'Paul', last_name: 'Papier', email: '', address: '3 place du Marché', postal_code: '69001', city: 'Lyon' });
    await add('honorary', { first_name: 'Henri', email: 'henri@example.org', exempt: true }, false);
    await add('forced', { first_name: 'Fanny', email: 'fanny@example.org' });
    await setOverride(t.db, ADMIN, ids.forced, { state: 'honorary', reason: 'Fondatrice' });
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.destroy();
  });

  const at = (iso: string) => runMembershipReminders(deps, new Date(iso));

  it('sends each step once when two instances run at the same time, and again nothing after a restart', async () => {
    expect(await at('2026-11-30T09:00:00.000Z')).toEqual({ emailed: 0, paper: 0, failed: 0 });
    const [a, b] = await Promise.all([at('2026-12-01T09:00:00.000Z'), at('2026-12-01T09:00:00.000Z')]);
    expect({ emailed: a.emailed + b.emailed, paper: a.paper + b.paper, failed: a.failed + b.failed }).toEqual({ emailed: 1, paper: 1, failed: 0 });
    expect(await at('2026-12-01T15:00:00.000Z')).toEqual({ emailed: 0, paper: 0, failed: 0 });
    const mail = await smtp.mailTo('grace@example.org');
    expect(mail.text).toContain('Subject: Your THV Foundation membership is coming to an end');
    expect(mail.text).toContain('Hello Grace Hopper, your THV Foundation membership (Active member, no. 1) ends on 31 December 2026.');
    const url = /https:\/\/fondation\.example\.org\/en\/devenir-membre\?renouveler=([^\s&"<]+)/.exec(mail.text);
    expect(url).not.toBeNull();
    expect(membershipOfRenewalToken(SECRET, decodeURIComponent(url![1]), new Date('2026-12-02T00:00:00Z'))).toBe(ids.mailed);
    expect(smtp.mails.filter((m) => m.to.includes('henri@example.org') || m.to.includes('fanny@example.org'))).toEqual([]);
  });

  it('on a moved clock, sends the next step, and lists the member without an address for a paper mailing', async () => {
    expect(await at('2026-12-24T09:00:00.000Z')).toEqual({ emailed: 1, paper: 1, failed: 0 });
    expect((await smtp.mailTo('grace@example.org')).text).toContain('ends on 31 December 2026');
    const log = await reminderLog(t.db);
    expect(log.filter((l) => l.channel === 'paper').map((l) => [l.name, l.step, l.address, l.sentAt])).toEqual([
      ['Paul Papier', -7, '3 place du Marché, 69001 Lyon, France', null],
      ['Paul Papier', -30, '3 place du Marché, 69001 Lyon, France', null],
    ]);
    expect(log.filter((l) => l.channel === 'email').every((l) => l.sentAt !== null)).toBe(true);

    const key = { membershipId: ids.paper, periodEnd: '2026-12-31', step: -7 };
    expect(await markPosted(t.db, ADMIN, key)).toBe(true);
    expect(await markPosted(t.db, ADMIN, key)).toBe(false);
    expect(await markPosted(t.db, ADMIN, { membershipId: ids.mailed, periodEnd: '2026-12-31', step: -7 })).toBe(false);
    const after = await reminderLog(t.db);
    expect(after.find((l) => l.membershipId === ids.paper && l.step === -7)?.sentAt).toEqual(expect.any(String));
    const audited = await t.db.selectFrom('audit_log').select(['user_name', 'details']).where('action', '=', 'membership.reminder.posted').execute();
    expect(audited.map((a) => [a.user_name, JSON.parse(a.details)])).toEqual([['Alice Admin', key]]);
  });

  it('stops reminding a member who renewed, and mails in French on the day itself', async () => {
    await applyDuesPayment(t.db, { membershipId: ids.mailed, paymentId: 'pay-renew', amountCents: 3000, paidAt: '2026-12-26T10:00:00.000Z', method: 'card' });
    expect(await at('2026-12-31T09:00:00.000Z')).toEqual({ emailed: 0, paper: 1, failed: 0 });
    const fr = await createMember(t.db, null, memberInput((await t.db.selectFrom('membership_types').select('id').executeTakeFirstOrThrow()).id, { first_name: 'Awa', email: 'awa@example.org' }));
    await applyDuesPayment(t.db, { membershipId: fr.id, paymentId: 'pay-awa', amountCents: 3000, paidAt: '2027-03-01T10:00:00.000Z', method: 'card' });
    expect(await at('2027-12-31T09:00:00.000Z')).toMatchObject({ emailed: 2 });
    const mail = await smtp.mailTo('awa@example.org');
    expect(mail.text).toContain('Bonjour Awa Diop, votre adhésion à la Fondation THV (Membre actif, n° 5) prend fin aujourd’hui, le 31 décembre 2027.');
    // Grace renewed early: reminded again for her new end, in English.
    expect((await smtp.mailTo('grace@example.org')).text).toContain('ends today, 31 December 2027.');
    expect(mail.text).toMatch(/devenir-membre\?renouveler=[^\s&]+\s/);
  });

  it('gives a failed mail’s claim back, and sends it at the next run', async () => {
    const broken = { ...deps, env: { ...deps.env, SMTP_URL: 'smtp://127.0.0.1:9' } };
    const type = (await t.db.selectFrom('membership_types').select('id').executeTakeFirstOrThrow()).id;
    const m = await createMember(t.db, null, memberInput(type, { first_name: 'Bob', email: 'bob@example.org' }));
    await applyDuesPayment(t.db, { membershipId: m.id, paymentId: 'pay-bob', amountCents: 3000, paidAt: '2028-02-01T10:00:00.000Z', method: 'card' });
    expect(await runMembershipReminders(broken, new Date('2028-12-01T09:00:00.000Z'))).toEqual({ emailed: 0, paper: 0, failed: 1 });
    expect(await t.db.selectFrom('membership_reminders').select('step').where('membership_id', '=', m.id).execute()).toEqual([]);
    expect(await at('2028-12-02T09:00:00.000Z')).toMatchObject({ emailed: 1 });
    expect((await smtp.mailTo('bob@example.org')).text).toContain('prend fin le 31 décembre 2028.');
  });
});

it('signs renewal links for one membership, refusing an altered, forged or expired one', () => {
  const now = new Date('2026-12-01T00:00:00Z');
  const token = renewalToken(SECRET, 'member-1', now);
  expect(membershipOfRenewalToken(SECRET, token, now)).toBe('member-1');
  expect(membershipOfRenewalToken(SECRET, token.replace('member-1', 'member-2'), now)).toBeNull();
  expect(membershipOfRenewalToken('another-secret'.padEnd(48, 'x'), token, now)).toBeNull();
  expect(membershipOfRenewalToken(SECRET, token, new Date('2027-04-01T00:00:00Z'))).toBeNull();
  expect(membershipOfRenewalToken(SECRET, 'nonsense', now)).toBeNull();
});
