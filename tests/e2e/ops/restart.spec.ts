import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { loadThroughStop, postContact } from '../../support/drain-load';
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

test('a restart under load loses no accepted request', async () => {
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-restart-'));
  const port = await freePort();
  const first = start(port, dataDir);
  await ready(port);

  // A bounded load through a stand-in for a load balancer (tests/support/drain-load.ts); SIGTERM after a second.
  const exited = new Promise<number | null>((r) => first.once('exit', (code) => r(code)));
  const { outcomes, okNumbers, routable } = await loadThroughStop(port, () => first.kill('SIGTERM'));
  expect(routable).toBe(false);
  expect(await exited).toBe(0);
  // Once stopped, new connections are refused (never accepted, never half-served).
  expect(await postContact(port, -1)).toBe('refused');

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
