import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { test, type APIRequestContext, type Page } from '@playwright/test';
import pg from 'pg';
import { openDatabase, type DB, type Dialect } from '~db/index';

/**
 * The back-office tests need servers of their own: a first start with no user, a server whose
 * SMTP_URL points at the test's SMTP server, a database whose sessions a test can age. Each gets a
 * fresh data directory, and a fresh PostgreSQL database when the dialect asks for one.
 */
export const BOTH_DIALECTS: Dialect[] = ['sqlite', 'postgres'];

/**
 * The dialects of a journey (issue 40, CI within budget). Every query is tested on SQLite and
 * PostgreSQL by Vitest (tests/integration, on both); a journey in the browser runs on SQLite, and
 * on PostgreSQL too only where the database's own behaviour is part of what the user sees:
 * sessions and roles (access), the ledger under webhook replays (donations), the receipt numbers
 * (receipts) and the reports' sums (reports) use BOTH_DIALECTS, as do the several instances on
 * one PostgreSQL (ops/instances). E2E_EVERY_DIALECT=1 runs every journey on both.
 */
export const DIALECTS: Dialect[] = process.env.E2E_EVERY_DIALECT === '1' ? BOTH_DIALECTS : ['sqlite'];

/**
 * Called inside a describe block, this skips the PostgreSQL variant (with the reason, counted in
 * the closing line) when PostgreSQL cannot run here (ADR 011).
 */
export function skipUnlessAvailable(dialect: Dialect) {
  test.skip(dialect === 'postgres' && !process.env.TEST_DATABASE_URL, 'PostgreSQL variant: TEST_DATABASE_URL is not set');
}

const root = path.resolve(import.meta.dirname, '..', '..', '..');
/** Each Playwright worker takes ten ports of its own, from 3220 on (3200–3299 is ours). */
const PORT_BASE = Number(process.env.E2E_ADMIN_PORT_BASE ?? 3220);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  const first = PORT_BASE + test.info().parallelIndex * 10;
  for (let port = first; port < first + 10; port++) if (await canListen(port)) return port;
  throw new Error(`no free port in ${first}-${first + 9}`);
}

export interface AdminServer {
  baseURL: string;
  dialect: Dialect;
  /** The server's own database, for what a test must arrange (aging a session) or check. */
  db: DB;
  /** The server's data directory (its media files under media/, for what a test arranges there). */
  dataDir: string;
  /** The server's process (a cluster's primary when WEB_CONCURRENCY > 1; to read its memory). */
  pid: number;
  /** Settles with the process's exit code when it exits. */
  exited: Promise<number | null>;
  /** Everything the server wrote to stdout and stderr so far (its log). */
  log(): string;
  stop(): Promise<void>;
}

export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `thv_e2e_${randomBytes(6).toString('hex')}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

interface Spawned {
  child: ChildProcess;
  baseURL: string;
  output: () => string;
}

/** server.js on a free port of this worker, waited for until /healthz answers. */
async function spawnServer(dataDir: string, databaseUrl: string, env: Record<string, string>): Promise<Spawned> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      SMTP_URL: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      // One process per test server (a cluster's workers each keep their own page cache; the
      // cluster itself is tested in tests/e2e/ops/cluster.spec.ts).
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const baseURL = `http://127.0.0.1:${port}`;
  // A first start seeds images: on a loaded 2-core machine it can take half a minute.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`${baseURL}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      // Not left running: a late start would take a port the next suite is given.
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, baseURL, output: () => `${stdout}${stderr}` };
}

function stopped(child: ChildProcess): Promise<unknown> {
  child.kill('SIGTERM');
  return new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

/**
 * A SQLite data directory seeded once per run and copied for each SQLite server (CI within
 * budget): the first start draws and resizes the default pictures, up to half a minute on a busy
 * 2-core machine, where a copy takes milliseconds. Built by the first worker to ask, under a lock
 * directory, by a server started and stopped on it (its own generated secret removed, so each copy
 * generates its own). A server whose environment changes what is seeded (media in an S3 bucket, a
 * retention period in the privacy page) or that runs on PostgreSQL seeds its own.
 */
const TEMPLATE = `${process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'thv-e2e')}-seeded`;

async function seededTemplate(): Promise<string> {
  const ready = path.join(TEMPLATE, '.ready');
  const lock = `${TEMPLATE}.lock`;
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(ready)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`the seeded data directory ${TEMPLATE} was not ready in time`);
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      fs.rmSync(TEMPLATE, { recursive: true, force: true });
      const seeding = await spawnServer(TEMPLATE, '', {});
      await stopped(seeding.child);
      fs.rmSync(path.join(TEMPLATE, 'app-secret'), { force: true });
      fs.writeFileSync(ready, '');
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return TEMPLATE;
}

const seedsItsOwn = (env: Record<string, string>) => Object.keys(env).some((k) => k.startsWith('S3_') || k === 'DATA_RETENTION_DAYS');

export async function startAdminServer(dialect: Dialect, env: Record<string, string> = {}): Promise<AdminServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-admin-e2e-'));
  const database = dialect === 'postgres' ? await createPgDatabase() : undefined;
  if (!database && !seedsItsOwn(env)) fs.cpSync(await seededTemplate(), dataDir, { recursive: true, filter: (src) => path.basename(src) !== '.ready' });
  const { child, baseURL, output } = await spawnServer(dataDir, database?.url ?? '', env);
  const handle = openDatabase({ databaseUrl: database?.url, dataDir });
  return {
    baseURL,
    dialect,
    db: handle.db,
    dataDir,
    pid: child.pid!,
    exited: new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)))),
    log: output,
    async stop() {
      await handle.close();
      await stopped(child);
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = 'un mot de passe solide';

/** An account made straight in the database (what the invitation flow does, without the mail). */
export async function createAccount(db: DB, role: 'Admin' | 'Éditeur', email: string, name = role === 'Admin' ? 'Alice Admin' : 'Éric Éditeur') {
  const now = new Date().toISOString();
  const passwordHash = await hash(PASSWORD, { algorithm: 2, memoryCost: 65536, timeCost: 3, parallelism: 1 });
  const row = await db
    .insertInto('users')
    .values({ id: randomBytes(8).toString('hex'), name, email, role, password_hash: passwordHash, version: 1, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

/** Signs in through the page, as a person does, and waits for the dashboard. */
export async function signIn(page: Page, baseURL: string, email: string, password = PASSWORD) {
  await page.goto(`${baseURL}/admin/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL(`${baseURL}/admin/dashboard`);
}

/** Signs in over HTTP, without a browser (the form posted as a page without JavaScript would). */
export async function signInRequest(request: APIRequestContext, baseURL: string, email: string, password = PASSWORD) {
  const res = await request.post(`${baseURL}/admin/login`, {
    form: { email, password },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  if (res.status() !== 303) throw new Error(`sign-in failed for ${email}: ${res.status()}`);
}

/**
 * A server for the enclosing describe block: started before its tests (after the hooks declared
 * earlier), stopped after them. The returned object reads through to it.
 */
export function serverForSuite(dialect: Dialect, env: () => Record<string, string> = () => ({}), setup?: (s: AdminServer) => Promise<void>): AdminServer {
  skipUnlessAvailable(dialect);
  let current: AdminServer | undefined;
  test.beforeAll(async () => {
    // Starting a server and seeding it can outlast the default 30 s when the machine is busy.
    test.setTimeout(120_000);
    current = await startAdminServer(dialect, env());
    await setup?.(current);
  });
  test.afterAll(async () => {
    await current?.stop();
  });
  const get = () => current ?? (() => { throw new Error('server not started'); })();
  return {
    get baseURL() { return get().baseURL; },
    get dialect() { return dialect; },
    get db() { return get().db; },
    get dataDir() { return get().dataDir; },
    get pid() { return get().pid; },
    get exited() { return get().exited; },
    log: () => get().log(),
    stop: () => get().stop(),
  };
}
