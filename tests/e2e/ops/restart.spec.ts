import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { freePort } from '../admin/server';

/**
 * SIGTERM under load: /readyz fails at once while requests are still served for the drain period
 * (what a load balancer needs to stop sending), then the server stops accepting, finishes what it
 * accepted, closes the database and exits 0; started again on the same data, it has every message
 * it acknowledged. Requests use one connection each, as behind a proxy: a refused connection was
 * never accepted, while a reset or a non-303 answer is a lost request.
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..');

function start(port: number, dataDir: string): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'error', HTML_CACHE: 'off', CONTACT_RATE_LIMIT: '100000', SHUTDOWN_DRAIN_MS: '3000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function ready(port: number) {
  for (let i = 0; i < 150; i++) {
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

type Outcome = 'ok' | 'refused' | 'lost' | string;

function post(port: number, n: number): Promise<Outcome> {
  const body = new URLSearchParams({ firstName: 'Charge', lastName: String(n), email: `load${n}@example.org`, message: 'Message envoyé sous charge' }).toString();
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/contact', method: 'POST', agent: false, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body), Origin: `http://127.0.0.1:${port}`, Connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 303 ? 'ok' : `lost: status ${res.statusCode}`));
        res.on('error', () => resolve('lost'));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : `lost: ${e.code ?? e.message}`));
    req.end(body);
  });
}

test('a restart under load loses no accepted request', async () => {
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-restart-'));
  const port = await freePort();
  const first = start(port, dataDir);
  await ready(port);

  // A bounded load (20 senders, 4 seconds at most) through a stand-in for a load balancer: it
  // polls /readyz and sends no new request once the instance says it is shutting down.
  const outcomes: Outcome[] = [];
  const okNumbers: number[] = [];
  let n = 0;
  let routable = true;
  const until = Date.now() + 4000;
  const probe = setInterval(() => {
    void fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => (routable = routable && r.ok),
      () => (routable = false),
    );
  }, 50);
  const sender = async () => {
    while (Date.now() < until && routable) {
      const i = n++;
      const o = await post(port, i);
      outcomes.push(o);
      if (o === 'ok') okNumbers.push(i);
    }
  };
  const load = Promise.all(Array.from({ length: 20 }, sender));
  await new Promise((r) => setTimeout(r, 1000));
  const exited = new Promise<number | null>((r) => first.once('exit', (code) => r(code)));
  first.kill('SIGTERM');
  await load;
  clearInterval(probe);
  expect(routable).toBe(false);
  expect(await exited).toBe(0);
  // Once stopped, new connections are refused (never accepted, never half-served).
  expect(await post(port, -1)).toBe('refused');

  expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThan(10);
  expect(outcomes.filter((o) => o.startsWith('lost'))).toEqual([]);

  // Every accepted message is there after the restart.
  const second = start(port, dataDir);
  try {
    await ready(port);
    const db = new Database(path.join(dataDir, 'site.sqlite'), { readonly: true });
    const stored = new Set((db.prepare("select last_name from messages where email like 'load%'").all() as { last_name: string }[]).map((r) => Number(r.last_name)));
    db.close();
    for (const i of okNumbers) expect(stored.has(i), `message ${i}`).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  } finally {
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
