import fs from 'node:fs';
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { createAccount, PASSWORD, signInRequest, startAdminServer, type AdminServer } from '../admin/server';

/**
 * `npm start` runs one worker per core (WEB_CONCURRENCY overrides) behind one port (ADR 017). On
 * SQLite there is no NOTIFY: a content change made through one worker must still empty every
 * worker's page cache at once, periodic jobs run in one worker only, a dead worker is replaced and
 * SIGTERM stops them all cleanly.
 */
test.describe.configure({ mode: 'serial' });

let server: AdminServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startAdminServer('sqlite', { WEB_CONCURRENCY: '2' });
  await createAccount(server.db, 'Admin', 'alice@example.org');
});
test.afterAll(async () => {
  await server?.stop();
});

/** The live child processes of `pid` (from /proc). */
function children(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A GET on a connection of its own: the cluster hands each new connection to the next worker. */
function getOnNewConnection(url: string): Promise<{ status: number; cache: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cache: String(res.headers['x-cache'] ?? ''), body }));
      })
      .on('error', reject)
      // A connection handed to a worker that just died is never answered.
      .setTimeout(3000, function (this: http.ClientRequest) {
        this.destroy(new Error('no answer in 3 s'));
      });
  });
}

test('two workers serve one port, and only one of them runs the periodic jobs', async () => {
  await expect.poll(() => children(server.pid).length, { timeout: 20_000 }).toBe(2);
  const runsJobs = children(server.pid).map((pid) => /(?:^|\0)THV_RUN_JOBS=1(?:\0|$)/.test(fs.readFileSync(`/proc/${pid}/environ`, 'utf8')));
  expect(runsJobs.filter(Boolean)).toHaveLength(1);
});

test('content saved through one worker is served fresh by every worker at once', async ({ request }) => {
  const page = `${server.baseURL}/partenaires`;
  // Both workers have the page cached (a later request on a new connection is a HIT on each).
  const warm = [];
  for (let i = 0; i < 6; i++) warm.push(await getOnNewConnection(page));
  expect(warm.filter((r) => r.cache === 'HIT').length).toBeGreaterThanOrEqual(3);

  await signInRequest(request, server.baseURL, 'alice@example.org', PASSWORD);
  const created = await request.post(`${server.baseURL}/admin/partners/new`, {
    form: { name: 'Partenaire vu par chaque worker', logoUrl: 'https://example.org/logo.png', website: 'https://example.org/chaque' },
    headers: { Origin: server.baseURL },
    maxRedirects: 0,
  });
  expect(created.status()).toBeLessThan(400);

  // Every following request, whichever worker takes it, shows the new partner.
  const after = [];
  for (let i = 0; i < 6; i++) after.push(await getOnNewConnection(page));
  expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(after.filter((r) => !r.body.includes('Partenaire vu par chaque worker'))).toEqual([]);
});

test('a worker that dies is replaced, and the site keeps answering', async () => {
  test.setTimeout(90_000);
  const [victim] = children(server.pid);
  process.kill(victim, 'SIGKILL');
  // A connection handed to the worker as it died may be reset; once the primary knows, the other
  // worker takes every connection while the replacement starts.
  await expect.poll(() => getOnNewConnection(`${server.baseURL}/`).then((r) => r.status, () => 0), { timeout: 15_000 }).toBe(200);
  for (let i = 0; i < 4; i++) expect((await getOnNewConnection(`${server.baseURL}/`)).status).toBe(200);
  await expect
    .poll(() => children(server.pid).filter((p) => p !== victim).length, { timeout: 60_000, message: 'a replacement worker' })
    .toBe(2);
  expect(server.log()).toContain('worker died; starting another');
});

test('SIGTERM stops every worker, then the primary, with exit code 0', async () => {
  const workers = children(server.pid);
  expect(workers).toHaveLength(2);
  process.kill(server.pid, 'SIGTERM');
  expect(await server.exited).toBe(0);
  for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
});
