import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, recentActivity } from '~/domain/audit/audit.server';
import { DELAY_STEP_MS, signIn, type SignInDeps } from '~/domain/users/sign-in.server';
import { createUser, issueToken } from '~/domain/users/users.server';
import { getPaymentSettings, savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { ADDRESS_LIMIT, NOTICE_AFTER, PAIR_LIMIT, clearLoginFailures, loginBlockedFor, recordLoginFailure } from '~/domain/users/throttle.server';
import { log, setLogLevel, setLogSink } from '~/lib/log.server';
import { pendingMails, sendMail } from '~/lib/mail.server';
import { DUMMY_HASH, hashPassword, verifyPassword } from '~/lib/password.server';
import { createSession } from '~/domain/users/sessions.server';
import { sessionCookie } from '~/routes/admin/auth.server';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';

const PASSWORD = 'le bon mot de passe du propriétaire';
const APP_SECRET = 'hardening-test-secret-'.padEnd(48, 'z');

/** Real password checks, counted: the work a sign-in does is what these tests compare. */
function deps() {
  const calls = { verify: [] as Array<string | null | undefined>, sleeps: [] as number[], notices: [] as Array<{ email: string; failures: number }> };
  const d: SignInDeps = {
    verify: async (stored, password) => {
      calls.verify.push(stored);
      return verifyPassword(stored, password);
    },
    sleep: async (ms) => void calls.sleeps.push(ms),
    notify: async (user, failures) => void calls.notices.push({ email: user.email, failures }),
  };
  return { d, calls };
}

describeEachDialect('hardening on %s', (dialect) => {
  let t: TestDb;
  let ownerEmail = '';
  beforeAll(async () => {
    t = await createTestDb(dialect);
    const created = await createUser(t.db, { id: null, name: 'Test' }, { name: 'Odile Owner', email: 'owner@example.org', role: 'Admin' });
    if ('error' in created) throw new Error(created.error);
    await t.db.updateTable('users').set({ password_hash: await hashPassword(PASSWORD) }).where('id', '=', created.user.id).execute();
    ownerEmail = created.user.email;
  });
  afterAll(() => t.destroy());

  it('six failures from one address do not refuse the right password from another, and are never a lock', async () => {
    const { d, calls } = deps();
    for (let i = 0; i < 6; i++) {
      const r = await signIn(t.db, { email: ownerEmail, password: `essai ${i}`, ip: '203.0.113.66' }, d);
      expect(r).toEqual(i < PAIR_LIMIT ? { ok: false, reason: 'invalid' } : { ok: false, reason: 'throttled', retryAfter: expect.any(Number) });
    }
    // The stranger's address waits (its pair is over the limit), with a growing delay before that.
    expect(calls.sleeps).toEqual([1, 2, 3, 4].map((n) => n * DELAY_STEP_MS));
    calls.sleeps.length = 0;
    // The owner, from their own address: no refusal, no delay.
    expect(await signIn(t.db, { email: ownerEmail, password: PASSWORD, ip: '198.51.100.7' }, d)).toMatchObject({ ok: true, user: { email: ownerEmail } });
    expect(calls.sleeps).toEqual([]);
    // The stranger's address still cannot try again on that account before the window ends.
    expect(await signIn(t.db, { email: ownerEmail, password: PASSWORD, ip: '203.0.113.66' }, d)).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('warns the owner once after repeated failures from anywhere, and the audit log shows it', async () => {
    const { d, calls } = deps();
    const email = 'warned@example.org';
    const created = await createUser(t.db, { id: null, name: 'Test' }, { name: 'Wanda', email, role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    await t.db.updateTable('users').set({ password_hash: await hashPassword(PASSWORD) }).where('email', '=', email).execute();
    // Hash checks are not what this test is about: a cheap comparison stands in for argon2.
    d.verify = async (stored, password) => Boolean(stored) && password === PASSWORD;
    for (let i = 0; i < NOTICE_AFTER + 2; i++) await signIn(t.db, { email, password: 'faux', ip: `192.0.2.${i}` }, d);
    expect(calls.notices).toEqual([{ email, failures: NOTICE_AFTER }]);
    const entries = await t.db.selectFrom('audit_log').select(['action', 'target']).where('target', '=', email).execute();
    expect(entries.filter((e) => e.action === 'auth.failures_notice')).toHaveLength(1);
    expect(entries.filter((e) => e.action === 'auth.login_failed')).toHaveLength(NOTICE_AFTER + 2);
    // Every attempt came from a new address: none was refused, so the owner still gets in.
    expect(await signIn(t.db, { email, password: PASSWORD, ip: '192.0.2.200' }, d)).toMatchObject({ ok: true });
  });

  it('refuses an address that sprays many accounts', async () => {
    const { d } = deps();
    d.verify = async (stored, password) => Boolean(stored) && password === PASSWORD;
    for (let i = 0; i < ADDRESS_LIMIT; i++) await signIn(t.db, { email: `nobody${i}@example.org`, password: 'x', ip: '203.0.113.99' }, d);
    expect(await signIn(t.db, { email: ownerEmail, password: PASSWORD, ip: '203.0.113.99' }, d)).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('counts failures per account whatever the case or spaces of its email, and a success forgets only the pair\'s', async () => {
    const now = Date.UTC(2031, 0, 1);
    const ip = '203.0.113.150';
    const counts = [];
    for (let i = 0; i < PAIR_LIMIT; i++) counts.push(await recordLoginFailure(t.db, i % 2 ? ' Casse@Example.org ' : 'casse@example.org', ip, now));
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect(await recordLoginFailure(t.db, 'autre-compte@example.org', '203.0.113.151', now)).toBe(1);
    expect(await loginBlockedFor(t.db, 'CASSE@example.org', ip, now + 60_000)).toEqual({ retryAfter: 14 * 60, failures: PAIR_LIMIT });
    await clearLoginFailures(t.db, ' casse@EXAMPLE.org', ip);
    // The address keeps its failures (one step of delay for five), the pair has none left.
    expect(await loginBlockedFor(t.db, 'casse@example.org', ip, now + 60_000)).toEqual({ retryAfter: 0, failures: 1 });
  });

  it('makes an address wait until the later of its two windows ends', async () => {
    const now = Date.UTC(2032, 0, 1);
    const ip = '203.0.113.160';
    for (let i = 0; i < ADDRESS_LIMIT; i++) await recordLoginFailure(t.db, `arrosage${i}@example.org`, ip, now - 10 * 60_000);
    expect(await loginBlockedFor(t.db, 'cible@example.org', ip, now)).toEqual({ retryAfter: 5 * 60, failures: ADDRESS_LIMIT / PAIR_LIMIT });
    for (let i = 0; i < PAIR_LIMIT; i++) await recordLoginFailure(t.db, 'cible@example.org', ip, now);
    expect(await loginBlockedFor(t.db, 'cible@example.org', ip, now)).toEqual({ retryAfter: 15 * 60, failures: PAIR_LIMIT });
  });

  it('does the same password-hash work for an unknown email as for a known one', async () => {
    const { d, calls } = deps();
    await signIn(t.db, { email: ownerEmail, password: 'pas le bon', ip: '198.51.100.20' }, d);
    await signIn(t.db, { email: 'inconnu@example.org', password: 'pas le bon', ip: '198.51.100.21' }, d);
    // One argon2 verification each: a real hash for the account, the dummy (same parameters) for nobody.
    expect(calls.verify).toHaveLength(2);
    expect(calls.verify[0]).toMatch(/^\$argon2id\$/);
    expect(calls.verify[1]).toBeUndefined();
    const params = (h: string) => h.split('$').slice(1, 4).join('$');
    expect(params(DUMMY_HASH)).toBe(params(calls.verify[0]!));
  });

  it('shows an Éditeur content events only, without addresses; an Admin everything', async () => {
    await audit(t.db, { id: null, name: 'Alice' }, 'auth.login', 'alice@example.org', { ip: '198.51.100.1' });
    await audit(t.db, { id: null, name: 'Alice' }, 'page.update', 'home', { ip: '198.51.100.1', page: 'home' });
    // Éditeurs edit campaigns too: they see those events, without addresses either.
    await audit(t.db, { id: null, name: 'Alice' }, 'campaign.publish', 'Puits de Kaya', { ip: '198.51.100.1', id: 'c1', revision: 2 });
    const editor = await recentActivity(t.db, 100, 'Éditeur');
    expect(editor.length).toBeGreaterThan(0);
    expect(editor.every((a) => /^(page|project|post|partner|campaign|media|message)\./.test(a.action))).toBe(true);
    expect(editor.find((a) => a.target === 'home')?.details).toEqual({ page: 'home' });
    expect(editor.find((a) => a.target === 'Puits de Kaya')).toMatchObject({ action: 'campaign.publish', details: { id: 'c1', revision: 2 } });
    const admin = await recentActivity(t.db, 100, 'Admin');
    expect(admin.find((a) => a.action === 'auth.login' && a.target === 'alice@example.org')?.details).toEqual({ ip: '198.51.100.1' });
    expect(admin.find((a) => a.target === 'home')?.details).toEqual({ ip: '198.51.100.1', page: 'home' });
  });

  it('keeps unsent mail for the Admins to read, and out of the log', async () => {
    const lines: string[] = [];
    const restoreLog = setLogSink((_level, line) => void lines.push(line));
    try {
      const link = `http://localhost/admin/reinitialiser/${await issueToken(t.db, (await t.db.selectFrom('users').select('id').where('email', '=', ownerEmail).executeTakeFirstOrThrow()).id, 'reset')}`;
      await sendMail(t.db, { from: 'x@example.org' }, { to: ownerEmail, subject: 'Réinitialisation', text: `Suivez ${link}`, html: `<a href="${link}">lien</a>` });
      const [latest] = await pendingMails(t.db);
      expect(latest).toMatchObject({ to: ownerEmail, subject: 'Réinitialisation', text: `Suivez ${link}` });
      expect(lines.join('\n')).not.toContain(link.split('/').pop());
      expect(lines.join('\n')).not.toContain('Suivez');
    } finally {
      setLogSink(restoreLog);
    }
  });
});

describeEachDialect('no secret in the log on %s', (dialect) => {
  let t: TestDb;
  const lines: string[] = [];
  let restoreLog: ReturnType<typeof setLogSink>;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    setLogLevel('debug');
    restoreLog = setLogSink((_level, line) => void lines.push(line));
  });
  afterAll(async () => {
    setLogLevel('info');
    setLogSink(restoreLog);
    await t.destroy();
  });

  it('redacts every token, password, cookie, key and link that the flows hand out, wherever a caller puts it', async () => {
    const created = await createUser(t.db, { id: null, name: 'Test' }, { name: 'Ivan', email: 'ivan@example.org', role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    const invitation = created.token;
    const reset = await issueToken(t.db, created.user.id, 'reset');
    const session = await createSession(t.db, created.user.id);
    const cookie = sessionCookie(session.token, session.expiresAt, true);
    const secrets = { stripe: 'sk_test_51HardeningSecretKey000000', flutterwave: 'FLWSECK_TEST-abcdef0123456789-X', hash: 'verif-hash-secret-value' };
    const { secrets: _none, version, ...form } = await getPaymentSettings(t.db, APP_SECRET);
    const saved = await savePaymentSettings(t.db, APP_SECRET, form, { set: { 'stripe.secretKey': secrets.stripe, 'mobileMoney.secretKey': secrets.flutterwave, 'mobileMoney.secretHash': secrets.hash }, clear: [] }, version);
    expect(saved.ok).toBe(true);
    log.info('payment settings saved', { settings: saved.ok ? saved.settings : null });

    // What a careless caller, the request log and error messages might put in the log.
    log.info('request', { method: 'GET', path: `/admin/invitation/${invitation}`, status: 200 });
    log.info('request', { method: 'POST', path: `/admin/reinitialiser/${reset}`, status: 303 });
    log.debug('incoming', { headers: { cookie, authorization: `Bearer ${secrets.stripe}`, 'verif-hash': secrets.hash }, body: { email: 'ivan@example.org', password: PASSWORD } });
    log.warn(`mail for ivan: http://localhost:3000/admin/invitation/${invitation}`);
    log.error('provider refused', { error: new Error(`401 with key ${secrets.flutterwave} and ${secrets.stripe}`), url: `https://api.example.org/verify?token=${reset}` });
    log.error('database down', { error: 'connect postgres://thv:db-password-123@db.internal:5432/thv failed' });
    log.info('session started', { session: session.token, cookie: `__session=${session.token}` });

    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(7);
    for (const secret of [invitation, reset, session.token, PASSWORD, secrets.stripe, secrets.flutterwave, secrets.hash, 'db-password-123']) {
      expect(all, secret).not.toContain(secret);
    }
    // What helps an operator stays: paths, statuses, who.
    expect(all).toContain('/admin/invitation/[redacted]');
    expect(all).toContain('ivan@example.org');
  });
});
