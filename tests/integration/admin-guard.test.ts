import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECTIONS, type Role } from '~/domain/users/permissions';
import { ADDRESS_LIMIT, PAIR_LIMIT, hitResetLimit, recordLoginFailure, retryMessage } from '~/domain/users/throttle.server';
import { originGuard } from '~/lib/origin.server';
import { actorOf, adminGuard, currentUser, endSession, requireUser, safeRedirect, startSession } from '~/routes/admin/auth.server';
import { parseEnv } from '~/lib/env.server';
import { peekRateLimit } from '~/lib/rate-limit.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime, startRuntime, stopRuntime } from '~/lib/runtime.server';
import { createSession, readSession } from '~/domain/users/sessions.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

/**
 * The admin layout's guard, called as React Router calls it: session, then the role allowed for
 * the path (permissions.ts), then same-origin for state changes. Asserts what the caller gets.
 */
describeEachDialect('the admin guard on %s', (dialect) => {
  let t: TestDb | undefined;
  let dataDir: string;
  const cookies: Partial<Record<Role, string>> = {};
  const ORIGIN = 'https://fondation.example.org';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-guard-'));
    let databaseUrl = '';
    if (dialect === 'postgres') {
      t = await createTestDb('postgres');
      databaseUrl = (t.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    }
    await startRuntime(parseEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, APP_SECRET: 'guard-secret-'.padEnd(48, 'g'), LOG_LEVEL: 'error', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', SMTP_URL: '' }));
    const now = new Date().toISOString();
    for (const role of ['Admin', 'Éditeur'] as const) {
      const id = `user-${role === 'Admin' ? 'admin' : 'editor'}`;
      await runtime().db.insertInto('users').values({ id, name: role, email: `${id}@example.org`, role, password_hash: 'x', version: 1, created_at: now, updated_at: now }).execute();
      cookies[role] = `__session=${(await createSession(runtime().db, id)).token}`;
    }
  });
  afterAll(async () => {
    await stopRuntime();
    await t?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function requestContext(secure = true) {
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { nonce: 'n', clientIp: '127.0.0.1', requestId: 'r', secure });
    return context;
  }

  /** What the guard answers: the next handler's response, or what it threw (403, redirect). */
  async function guard(pathname: string, opts: { role?: Role; method?: string; origin?: string; headers?: Record<string, string> } = {}) {
    const headers = new Headers(opts.headers);
    if (opts.role) headers.set('Cookie', cookies[opts.role]!);
    if (opts.origin) headers.set('Origin', opts.origin);
    const request = new Request(`${ORIGIN}${pathname}`, { method: opts.method ?? 'GET', headers });
    let reached = false;
    try {
      const response = (await adminGuard({ request, context: requestContext(), params: {}, unstable_pattern: '' } as never, async () => {
        reached = true;
        return new Response('page');
      })) as Response;
      return { reached, status: response.status, cacheControl: response.headers.get('Cache-Control') };
    } catch (e) {
      if (e instanceof Response) {
        const setCookie = e.headers.get('Set-Cookie');
        return { reached, status: e.status, location: e.headers.get('Location'), ...(setCookie ? { setCookie } : {}) };
      }
      // `data(…, { status })` thrown: React Router answers with that status and body.
      const thrown = e as { type?: string; data?: unknown; init?: { status?: number } };
      if (thrown?.type === 'DataWithResponseInit') return { reached, status: thrown.init?.status, body: thrown.data };
      throw e;
    }
  }

  it('lets each role through to exactly the sections its role may open, and refuses the others with 403', async () => {
    for (const s of ADMIN_SECTIONS) {
      for (const role of ['Admin', 'Éditeur'] as const) {
        for (const p of [s.path, `${s.path}/quelque-chose`, `${s.path}.data`]) {
          const got = await guard(p, { role });
          if (s.roles.includes(role)) expect(got, `${role} ${p}`).toEqual({ reached: true, status: 200, cacheControl: 'private, no-store' });
          else expect(got, `${role} ${p}`).toEqual({ reached: false, status: 403, body: 'Accès refusé' });
        }
      }
    }
    // The Éditeur is refused at least the Admin-only sections (users, payments, donations, settings).
    expect((await guard('/admin/users', { role: 'Éditeur' })).status).toBe(403);
    expect((await guard('/admin/users', { role: 'Admin' })).status).toBe(200);
  });

  it('sends a visitor without a session to the sign-in page, and back after it', async () => {
    expect(await guard('/admin/donations?page=2')).toEqual({ reached: false, status: 302, location: '/admin/login?redirectTo=%2Fadmin%2Fdonations%3Fpage%3D2' });
    expect(await guard('/admin/donations', { role: undefined, method: 'POST', origin: ORIGIN })).toMatchObject({ reached: false, status: 302 });
  });

  it('refuses a state change from another site before anything else, even for an Admin', async () => {
    expect(await guard('/admin/users/new', { role: 'Admin', method: 'POST', origin: 'https://pirate.example' })).toEqual({ reached: false, status: 403, body: 'Accès refusé' });
    expect(await guard('/admin/users/new', { role: 'Admin', method: 'POST', origin: ORIGIN })).toMatchObject({ reached: true, status: 200 });
  });

  it('lets any signed-in user reach an admin path outside every section (it answers 404 there)', async () => {
    expect(await guard('/admin/page-inconnue', { role: 'Éditeur' })).toMatchObject({ reached: true, status: 200 });
  });

  it('accepts a state change from PUBLIC_URL\'s origin or from our own pages without Origin, and refuses a cross-site one', async () => {
    const post = (headers: Record<string, string>) => guard('/admin/pages', { role: 'Admin', method: 'POST', headers });
    expect(await post({ Origin: 'https://www.fondation.example.org' })).toMatchObject({ reached: false, status: 403 });
    runtime().publicUrl = 'https://www.fondation.example.org';
    try {
      expect(await post({ Origin: 'https://www.fondation.example.org' })).toMatchObject({ reached: true, status: 200 });
      expect(await post({ Origin: ORIGIN })).toMatchObject({ reached: true, status: 200 });
      expect(await post({ Origin: 'https://pirate.example' })).toMatchObject({ reached: false, status: 403 });
    } finally {
      runtime().publicUrl = undefined;
    }
    for (const site of ['cross-site', 'same-site']) expect(await post({ 'Sec-Fetch-Site': site }), site).toMatchObject({ reached: false, status: 403 });
    for (const site of ['same-origin', 'none']) expect(await post({ 'Sec-Fetch-Site': site }), site).toMatchObject({ reached: true, status: 200 });
    expect(await post({})).toMatchObject({ reached: true, status: 200 });
    // Reading is never refused for its origin.
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(await guard('/admin/pages', { role: 'Admin', method, origin: 'https://pirate.example' }), method).toMatchObject({ reached: true, status: 200 });
  });

  it('on the sign-in pages, checks the origin of a state change only', async () => {
    const call = async (headers: Record<string, string>) => {
      const request = new Request(`${ORIGIN}/admin/login`, { method: 'POST', headers });
      try {
        return ((await originGuard({ request, context: requestContext(), params: {}, unstable_pattern: '' } as never, async () => new Response('page'))) as Response).status;
      } catch (e) {
        return (e as { init?: { status?: number } }).init?.status;
      }
    };
    expect(await call({ Origin: ORIGIN })).toBe(200);
    expect(await call({})).toBe(200);
    expect(await call({ Origin: 'https://pirate.example' })).toBe(403);
  });

  it('takes only a trailing .data for React Router\'s data requests', async () => {
    expect(await guard('/admin/pages/edit/notes.dataset')).toMatchObject({ location: '/admin/login?redirectTo=%2Fadmin%2Fpages%2Fedit%2Fnotes.dataset' });
    // Not a users page (an unknown address, answered 404 later), so not refused to an Éditeur.
    expect(await guard('/admin/users.data/x', { role: 'Éditeur' })).toMatchObject({ reached: true, status: 200 });
  });

  it('after signing in, comes back to the page asked for (not to the dashboard or /admin), and clears a dead session cookie', async () => {
    expect(await guard('/admin')).toEqual({ reached: false, status: 302, location: '/admin/login' });
    expect(await guard('/admin/dashboard')).toEqual({ reached: false, status: 302, location: '/admin/login' });
    expect(await guard('/admin/donations.data?page=2')).toEqual({ reached: false, status: 302, location: '/admin/login?redirectTo=%2Fadmin%2Fdonations%3Fpage%3D2' });
    expect(await guard('/admin/pages', { headers: { Cookie: '__session=plus-valable' } })).toEqual({
      reached: false,
      status: 302,
      location: '/admin/login?redirectTo=%2Fadmin%2Fpages',
      setCookie: '__session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    });
  });

  it('answers 403 to a user whose role may not open the area or is not the one required', async () => {
    const request = (role: Role) => new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookies[role]! } });
    const status = (p: Promise<unknown>) => p.then(() => 200, (e: { init?: { status?: number } }) => e.init?.status);
    expect(await status(requireUser(request('Éditeur'), requestContext(), { area: 'payments' }))).toBe(403);
    expect(await status(requireUser(request('Éditeur'), requestContext(), { role: 'Admin' }))).toBe(403);
    expect(await status(requireUser(request('Éditeur'), requestContext(), { area: 'pages' }))).toBe(200);
    const admin = await requireUser(request('Admin'), requestContext(), { area: 'payments', role: 'Admin' });
    expect(actorOf(admin)).toEqual({ id: 'user-admin', name: 'Admin' });
  });

  it('reads the session once per request', async () => {
    const { token } = await createSession(runtime().db, 'user-editor');
    const request = new Request(`${ORIGIN}/admin/pages`, { headers: { Cookie: `__session=${token}` } });
    const context = requestContext();
    expect((await currentUser(request, context))?.id).toBe('user-editor');
    await endSession(request, requestContext());
    expect((await currentUser(request, context))?.id).toBe('user-editor');
    expect(await currentUser(request, requestContext())).toBeNull();
  });

  it('signing in starts a new session (the old one ends) and signing out ends it; the cookie is Secure over HTTPS', async () => {
    const { token: old } = await createSession(runtime().db, 'user-editor');
    const http = (cookie: string) => new Request('http://127.0.0.1:3000/admin/login', { method: 'POST', headers: { Cookie: cookie } });
    const cookie = await startSession(http(`__session=${old}`), requestContext(false), 'user-editor');
    const [, token, maxAge] = /^__session=([^;]+); Path=\/; HttpOnly; SameSite=Lax; Max-Age=(\d+)$/.exec(cookie) ?? [];
    expect(Number(maxAge)).toBeGreaterThan(12 * 3600 - 10); // the session's 12 hours, less the time it took
    expect(Number(maxAge)).toBeLessThanOrEqual(12 * 3600);
    expect(await readSession(runtime().db, old)).toBeNull();
    expect((await readSession(runtime().db, token))?.id).toBe('user-editor');
    // Secure: the request says HTTPS (behind a proxy), its address is https, or PUBLIC_URL is.
    expect(await startSession(http(''), requestContext(true), 'user-editor')).toMatch(/; Secure$/);
    expect(await startSession(new Request(`${ORIGIN}/admin/login`), requestContext(false), 'user-editor')).toMatch(/; Secure$/);
    runtime().publicUrl = 'https://www.fondation.example.org';
    try {
      expect(await endSession(http(''), requestContext(false))).toBe('__session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');
      runtime().publicUrl = 'http://www.fondation.example.org';
      expect(await endSession(http(''), requestContext(false))).toBe('__session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    } finally {
      runtime().publicUrl = undefined;
    }
    expect(await endSession(http(`__session=${token}`), requestContext(false))).toBe('__session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expect(await readSession(runtime().db, token)).toBeNull();
  });

  it('counts password-reset requests per (account, address) and per address: strangers never stop the owner’s mails (ADR 010)', async () => {
    const db = runtime().db;
    const stranger = '203.0.113.66';
    for (let i = 0; i < PAIR_LIMIT; i++) expect(await hitResetLimit(db, ' Reset@Example.org', stranger)).toBe(0);
    const wait = await hitResetLimit(db, 'reset@example.org', stranger);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // Strangers from many addresses, then the owner from their own: the owner still gets the mail.
    for (let i = 0; i < 10; i++) expect(await hitResetLimit(db, 'reset@example.org', `192.0.2.${i}`)).toBe(0);
    expect(await hitResetLimit(db, 'reset@example.org', '198.51.100.7')).toBe(0);
    // One address asking for many accounts is stopped after ADDRESS_LIMIT requests.
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect(await hitResetLimit(db, `autre${i}@example.org`, '198.51.100.20')).toBe(0);
    expect(await hitResetLimit(db, 'encore@example.org', '198.51.100.20')).toBeGreaterThan(14 * 60);
  });

  it('counts sign-in failures and reset requests under keys of their own, by the trimmed, lowercased email (the keys are stored: a window counted before a deploy still counts after it)', async () => {
    const db = runtime().db;
    const ip = '203.0.113.77';
    await recordLoginFailure(db, ' Keys@Example.ORG ', ip);
    await hitResetLimit(db, 'KEYS@example.org', ip);
    const count = async (key: string) => (await peekRateLimit(db, key)).count;
    expect(await count(`login:pair:keys@example.org|${ip}`)).toBe(1);
    expect(await count(`login:ip:${ip}`)).toBe(1);
    expect(await count('login:account:keys@example.org')).toBe(1);
    expect(await count(`reset:pair:keys@example.org|${ip}`)).toBe(1);
    expect(await count(`reset:ip:${ip}`)).toBe(1);
  });
});

describe('sign-in helpers', () => {
  it('comes back after signing in only to an admin page, never to the sign-in flow or another site', () => {
    expect(safeRedirect('/admin/pages?tri=date#haut')).toBe('/admin/pages?tri=date#haut');
    for (const bad of [null, undefined, '', '/blog', 'https://pirate.example/admin', '//pirate.example/admin', '/admin\\pirate', '/admin/login', '/admin/login?x=1', '/admin/logout#y'])
      expect(safeRedirect(bad), String(bad)).toBe('/admin/dashboard');
    expect(safeRedirect('/blog', '/admin/users')).toBe('/admin/users');
    // Only a leading '//' names another host: a doubled slash further on stays an admin path.
    expect(safeRedirect('/admin/pages//')).toBe('/admin/pages//');
  });

  it('says how many whole minutes to wait, one at least', () => {
    expect(retryMessage(0)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryMessage(60)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryMessage(61)).toBe('Trop de tentatives. Réessayez dans 2 minutes.');
    expect(retryMessage(900)).toBe('Trop de tentatives. Réessayez dans 15 minutes.');
  });
});
