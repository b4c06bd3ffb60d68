import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_SECTIONS, type Role } from '~/domain/users/permissions';
import { adminGuard } from '~/lib/auth.server';
import { parseEnv } from '~/lib/env.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime, startRuntime, stopRuntime } from '~/lib/runtime.server';
import { createSession } from '~/lib/session.server';
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

  /** What the guard answers: the next handler's response, or what it threw (403, redirect). */
  async function guard(pathname: string, opts: { role?: Role; method?: string; origin?: string } = {}) {
    const headers = new Headers();
    if (opts.role) headers.set('Cookie', cookies[opts.role]!);
    if (opts.origin) headers.set('Origin', opts.origin);
    const request = new Request(`${ORIGIN}${pathname}`, { method: opts.method ?? 'GET', headers });
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { nonce: 'n', clientIp: '127.0.0.1', requestId: 'r', secure: true });
    let reached = false;
    try {
      const response = (await adminGuard({ request, context, params: {}, unstable_pattern: '' } as never, async () => {
        reached = true;
        return new Response('page');
      })) as Response;
      return { reached, status: response.status, cacheControl: response.headers.get('Cache-Control') };
    } catch (e) {
      if (e instanceof Response) return { reached, status: e.status, location: e.headers.get('Location') };
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
});
