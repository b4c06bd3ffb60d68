import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, recentActivity } from '~/domain/audit/audit.server';
import { ensureFirstAdmin } from '~/domain/users/bootstrap.server';
import {
  countUsers,
  createFirstAdmin,
  createUser,
  deleteUser,
  issueToken,
  redeemPasswordToken,
  updateUser,
  userForToken,
} from '~/domain/users/users.server';
import { sendMail } from '~/lib/mail.server';
import { peekRateLimit, hitRateLimit } from '~/lib/rate-limit.server';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, createSession, destroySession, destroyUserSessions, pruneSessions, readSession } from '~/domain/users/sessions.server';
import { clearSessionCookie, readSessionToken, sessionCookie } from '~/routes/admin/auth.server';
import { hashToken } from '~/lib/tokens.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const HASH = '$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2g'; // a stand-in: nothing here verifies it
const actor = { id: null, name: 'Test' };

describeEachDialect('users, sessions and one-time links on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  it('creates the first Admin only while nobody exists, even when asked twice at once', async () => {
    const [a, b] = await Promise.all([
      createFirstAdmin(t.db, { name: 'A', email: 'A@Example.org', passwordHash: HASH }, 'setup'),
      createFirstAdmin(t.db, { name: 'B', email: 'b@example.org', passwordHash: HASH }, 'setup'),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await countUsers(t.db)).toBe(1);
    const first = (a ?? b)!;
    expect(first.role).toBe('Admin');
    expect(first.email).toBe(first.name === 'A' ? 'a@example.org' : 'b@example.org');
    // ADMIN_EMAIL / ADMIN_PASSWORD do nothing once a user exists.
    await ensureFirstAdmin(t.db, { ADMIN_EMAIL: 'env@example.org', ADMIN_PASSWORD: 'un mot de passe solide' });
    expect(await countUsers(t.db)).toBe(1);
  });

  it('refuses a bad ADMIN_PASSWORD at start with a clear message', async () => {
    const empty = await createTestDb(dialect);
    try {
      await expect(ensureFirstAdmin(empty.db, { ADMIN_EMAIL: 'env@example.org', ADMIN_PASSWORD: 'court' })).rejects.toThrow(/ADMIN_PASSWORD: Le mot de passe doit contenir au moins 12 caractères/);
      await expect(ensureFirstAdmin(empty.db, { ADMIN_EMAIL: 'env@example.org' })).rejects.toThrow(/must be set together/);
      await ensureFirstAdmin(empty.db, { ADMIN_EMAIL: ' Env@Example.org ', ADMIN_PASSWORD: 'un mot de passe solide' });
      const row = await empty.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: 'env@example.org', role: 'Admin' });
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
    } finally {
      await empty.destroy();
    }
  });

  it('keeps emails unique whatever their case, and never loses the last Admin', async () => {
    const admin = (await t.db.selectFrom('users').selectAll().executeTakeFirstOrThrow());
    expect(await createUser(t.db, actor, { name: 'Dup', email: admin.email.toUpperCase(), role: 'Éditeur' })).toEqual({ error: 'emailTaken' });
    const created = await createUser(t.db, actor, { name: 'Éric', email: 'eric@example.org', role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    expect(created.user.status).toBe('invited');

    expect(await updateUser(t.db, actor, admin.id, { name: admin.name, email: admin.email, role: 'Éditeur' }, admin.version)).toEqual({ error: 'lastAdmin' });
    expect(await deleteUser(t.db, actor, admin.id)).toEqual({ error: 'lastAdmin', onlyUser: false });
    // A stale version is refused rather than overwriting someone else's change.
    expect(await updateUser(t.db, actor, created.user.id, { name: 'X', email: 'eric@example.org', role: 'Admin' }, 99)).toEqual({ error: 'conflict' });
    const promoted = await updateUser(t.db, actor, created.user.id, { name: 'Éric', email: 'eric@example.org', role: 'Admin' }, created.user.version);
    expect('user' in promoted && promoted.user.role).toBe('Admin');
    // Two Admins deleting each other at the same time: one of them stays.
    const results = await Promise.all([deleteUser(t.db, actor, admin.id), deleteUser(t.db, actor, created.user.id)]);
    expect(results.filter((r) => 'user' in r)).toHaveLength(1);
    const admins = await t.db.selectFrom('users').select('id').where('role', '=', 'Admin').execute();
    expect(admins).toHaveLength(1);
    const log = await t.db.selectFrom('audit_log').select(['action', 'details']).execute();
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['auth.setup', 'user.create', 'user.update', 'user.delete']));
  });

  it('links work once, before they expire, and end the sessions of their user', async () => {
    const created = await createUser(t.db, actor, { name: 'Lien', email: 'lien@example.org', role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    const { user, token } = created;
    expect((await userForToken(t.db, token, 'invitation'))?.id).toBe(user.id);
    expect(await userForToken(t.db, token, 'reset')).toBeUndefined();
    const { token: session } = await createSession(t.db, user.id);
    const [first, second] = await Promise.all([
      redeemPasswordToken(t.db, token, 'invitation', HASH),
      redeemPasswordToken(t.db, token, 'invitation', HASH),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await readSession(t.db, session)).toBeNull();
    expect(await userForToken(t.db, token, 'invitation')).toBeUndefined();

    const reset = await issueToken(t.db, user.id, 'reset', new Date(Date.now() - 2 * 3600_000));
    expect(await redeemPasswordToken(t.db, reset, 'reset', HASH)).toBeUndefined();
    // A newer link replaces the older one.
    const older = await issueToken(t.db, user.id, 'reset');
    const newer = await issueToken(t.db, user.id, 'reset');
    expect(await userForToken(t.db, older, 'reset')).toBeUndefined();
    expect((await userForToken(t.db, newer, 'reset'))?.id).toBe(user.id);
  });

  it('sessions end after the idle timeout, the absolute lifetime, sign-out and deletion', async () => {
    const created = await createUser(t.db, actor, { name: 'Session', email: 'session@example.org', role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    const id = created.user.id;
    const t0 = new Date('2030-01-01T08:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);

    const a = await createSession(t.db, id, t0);
    expect((await readSession(t.db, a.token, at(SESSION_IDLE_MS - 60_000)))?.email).toBe('session@example.org');
    // Each request moves the idle window along…
    expect(await readSession(t.db, a.token, at(2 * SESSION_IDLE_MS - 120_000))).not.toBeNull();
    // …until nothing comes for too long.
    expect(await readSession(t.db, a.token, at(3 * SESSION_IDLE_MS))).toBeNull();

    const b = await createSession(t.db, id, t0);
    for (let ms = 0; ms < SESSION_ABSOLUTE_MS; ms += SESSION_IDLE_MS / 2) expect(await readSession(t.db, b.token, at(ms))).not.toBeNull();
    expect(await readSession(t.db, b.token, at(SESSION_ABSOLUTE_MS))).toBeNull();

    const c = await createSession(t.db, id);
    const d = await createSession(t.db, id);
    const keep = (await readSession(t.db, d.token))!.sessionId;
    await destroyUserSessions(t.db, id, keep);
    expect(await readSession(t.db, c.token)).toBeNull();
    expect(await readSession(t.db, d.token)).not.toBeNull();
    expect(await readSession(t.db, 'not-a-token')).toBeNull();

    await deleteUser(t.db, actor, id);
    expect(await readSession(t.db, d.token)).toBeNull();

    await createSession(t.db, (await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id, new Date('2000-01-01'));
    await pruneSessions(t.db);
    const old = await t.db.selectFrom('sessions').select('id').where('created_at', '<', '2001-01-01').execute();
    expect(old).toHaveLength(0);
  });

  it('a session ends at the very moment of its idle or absolute end, and keeps only the token\'s hash', async () => {
    const created = await createUser(t.db, actor, { name: 'Bornes', email: 'bornes@example.org', role: 'Admin' });
    if ('error' in created) throw new Error(created.error);
    const t0 = new Date('2031-03-01T08:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const row = (token: string) => t.db.selectFrom('sessions').selectAll().where('id', '=', hashToken(token)).executeTakeFirst();

    const a = await createSession(t.db, created.user.id, t0);
    expect(a.expiresAt).toEqual(at(SESSION_ABSOLUTE_MS));
    expect(await row(a.token)).toMatchObject({ user_id: created.user.id, created_at: t0.toISOString(), last_seen_at: t0.toISOString(), expires_at: at(SESSION_ABSOLUTE_MS).toISOString() });
    expect(await t.db.selectFrom('sessions').select('id').where('id', '=', a.token).executeTakeFirst()).toBeUndefined();
    expect(await readSession(t.db, a.token, at(SESSION_IDLE_MS - 1))).toEqual({ sessionId: hashToken(a.token), id: created.user.id, name: 'Bornes', email: 'bornes@example.org', role: 'Admin' });
    const b = await createSession(t.db, created.user.id, t0);
    expect(await readSession(t.db, b.token, at(SESSION_IDLE_MS))).toBeNull();
    expect(await row(b.token)).toBeUndefined();

    // last_seen_at moves at most once a minute.
    const c = await createSession(t.db, created.user.id, t0);
    await readSession(t.db, c.token, at(59_999));
    expect((await row(c.token))?.last_seen_at).toBe(t0.toISOString());
    await readSession(t.db, c.token, at(60_000));
    expect((await row(c.token))?.last_seen_at).toBe(at(60_000).toISOString());

    // The absolute end holds even for a session seen a moment ago.
    const d = await createSession(t.db, created.user.id, at(-SESSION_ABSOLUTE_MS + 1));
    await t.db.updateTable('sessions').set({ last_seen_at: t0.toISOString() }).where('id', '=', hashToken(d.token)).execute();
    expect(await readSession(t.db, d.token, at(0))).not.toBeNull();
    expect(await readSession(t.db, d.token, at(1))).toBeNull();

    // A role that no longer exists signs its holder out.
    const e = await createSession(t.db, created.user.id, t0);
    await t.db.updateTable('users').set({ role: 'Ancien rôle' }).where('id', '=', created.user.id).execute();
    expect(await readSession(t.db, e.token, at(1000))).toBeNull();
    expect(await row(e.token)).toBeUndefined();
    await t.db.updateTable('users').set({ role: 'Admin' }).where('id', '=', created.user.id).execute();

    // Signing out ends this session only; no cookie, nothing to end.
    const f = await createSession(t.db, created.user.id, t0);
    const g = await createSession(t.db, created.user.id, t0);
    await destroySession(t.db, undefined);
    await destroySession(t.db, f.token);
    expect(await row(f.token)).toBeUndefined();
    expect(await row(g.token)).toBeDefined();
    expect(await readSession(t.db, '', t0)).toBeNull();
    expect(await readSession(t.db, undefined, t0)).toBeNull();

    // A cookie longer than 100 characters is never looked up, even if its hash were stored.
    for (const token of ['t'.repeat(100), 't'.repeat(101)]) {
      await t.db.insertInto('sessions').values({ id: hashToken(token), user_id: created.user.id, created_at: t0.toISOString(), last_seen_at: t0.toISOString(), expires_at: at(SESSION_ABSOLUTE_MS).toISOString() }).execute();
    }
    expect((await readSession(t.db, 't'.repeat(100), t0))?.id).toBe(created.user.id);
    expect(await readSession(t.db, 't'.repeat(101), t0)).toBeNull();
  });

  it('pruning removes sessions at their absolute or idle end, and keeps live ones', async () => {
    const created = await createUser(t.db, actor, { name: 'Ménage', email: 'menage@example.org', role: 'Éditeur' });
    if ('error' in created) throw new Error(created.error);
    const now = new Date('2032-06-01T12:00:00Z');
    const before = (ms: number) => new Date(now.getTime() - ms);
    const live = await createSession(t.db, created.user.id, before(SESSION_IDLE_MS - 1));
    const idle = await createSession(t.db, created.user.id, before(SESSION_IDLE_MS));
    const old = await createSession(t.db, created.user.id, before(SESSION_IDLE_MS - 1));
    await t.db.updateTable('sessions').set({ expires_at: now.toISOString() }).where('id', '=', hashToken(old.token)).execute();
    await pruneSessions(t.db, now);
    const left = (await t.db.selectFrom('sessions').select('id').where('user_id', '=', created.user.id).execute()).map((r) => r.id);
    expect(left).toEqual([hashToken(live.token)]);
  });

  it('lists activity newest first, in the order it happened, even within one millisecond', async () => {
    for (let i = 0; i < 6; i++) await audit(t.db, actor, 'test.order', `étape ${i}`);
    expect((await recentActivity(t.db, 6)).map((e) => e.target)).toEqual(['étape 5', 'étape 4', 'étape 3', 'étape 2', 'étape 1', 'étape 0']);
  });

  it('never writes secrets into the audit log', async () => {
    await audit(t.db, actor, 'test.secret', 'cible', { password: 'x', token: 'y', apiKey: 'z', sessionId: 's', changes: ['rôle'] });
    const [entry] = await recentActivity(t.db, 1);
    expect(entry).toMatchObject({ action: 'test.secret', target: 'cible', userName: 'Test', details: { changes: ['rôle'] } });
  });

  it('keeps mail in the outbox without SMTP, and records a failed delivery as failed', async () => {
    const mail = { to: 'x@example.org', subject: 'Sujet', text: 'Texte', html: '<p>Texte</p>' };
    const kept = await sendMail(t.db, { from: 'a@example.org' }, mail);
    expect(kept.status).toBe('outbox');
    // Nothing listens on port 1.
    const failed = await sendMail(t.db, { from: 'a@example.org', smtpUrl: 'smtp://127.0.0.1:1' }, mail);
    expect(failed.status).toBe('failed');
    const row = (id: string) => t.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await row(kept.id)).toMatchObject({ to: 'x@example.org', subject: 'Sujet', sent_at: null, error: null });
    expect(await row(failed.id)).toMatchObject({ sent_at: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('reads a rate-limit counter without counting', async () => {
    await hitRateLimit(t.db, 'peek', 5, 60_000, 1_000);
    await hitRateLimit(t.db, 'peek', 5, 60_000, 1_001);
    expect(await peekRateLimit(t.db, 'peek', 2_000)).toEqual({ count: 2, retryAfter: 59 });
    expect(await peekRateLimit(t.db, 'peek', 2_000)).toEqual({ count: 2, retryAfter: 59 });
    expect(await peekRateLimit(t.db, 'peek', 70_000)).toEqual({ count: 0, retryAfter: 0 });
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, site-wide, Secure over HTTPS, and lasts until the session\'s end', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(sessionCookie('tok', new Date(now.getTime() + 90_999), true, now)).toBe('__session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=90; Secure');
    expect(sessionCookie('tok', new Date(now.getTime() + 1000), false, now)).toBe('__session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=1');
    expect(sessionCookie('tok', new Date(now.getTime() - 5000), false, now)).toBe('__session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expect(clearSessionCookie(true)).toBe('__session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');
  });

  it('is read from the request, and an empty one is none', () => {
    const request = (cookie?: string) => new Request('https://example.org/admin', { headers: cookie ? { cookie } : {} });
    expect(readSessionToken(request('lang=fr; __session=abc'))).toBe('abc');
    expect(readSessionToken(request('__session='))).toBeUndefined();
    expect(readSessionToken(request())).toBeUndefined();
  });
});
