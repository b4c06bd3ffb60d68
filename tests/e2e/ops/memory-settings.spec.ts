import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../admin/server';

/**
 * `node server.js` starts itself again once, in place, with lean memory settings (ADR 017): V8's
 * young generation capped at 16 MiB semi-spaces, its old generation at 1 GiB when V8 would allow
 * more (never raised above V8's own limit), and two glibc arenas. What `ps` shows of the
 * process (its command line, its environment) is what is checked here; the memory it saves is the
 * benchmark's business (`npm run bench`). The operator's own settings win.
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..');

async function started(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; cmdline: string[]; environ: string[] }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-memory-'));
  const child = spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error', WEB_CONCURRENCY: '1', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 150; i++) {
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // The process that answers is the one that was spawned: same id, nothing left behind.
  const read = (file: string) => fs.readFileSync(`/proc/${child.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  return { child, cmdline: read('cmdline'), environ: read('environ') };
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** V8's own heap limit on this machine, in MiB, for a process started without flags. */
function v8DefaultLimitMiB(): number {
  const out = spawnSync(process.execPath, ['-e', "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))"], {
    env: { ...process.env, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  const limit = Number(out.stdout) / 2 ** 20;
  expect(limit, out.stderr).toBeGreaterThan(0);
  return limit;
}

test('the server runs with lean memory settings unless the operator chose others', async () => {
  test.setTimeout(60_000);
  const { child, cmdline, environ } = await started({ NODE_OPTIONS: '', MALLOC_ARENA_MAX: undefined });
  try {
    expect(cmdline).toContain('--max-semi-space-size=16');
    if (v8DefaultLimitMiB() > 1024) expect(cmdline).toContain('--max-old-space-size=1024');
    else expect(cmdline.join(' ')).not.toContain('--max-old-space-size');
    expect(cmdline.at(-1)).toBe(path.join(root, 'server.js'));
    expect(environ).toContain('MALLOC_ARENA_MAX=2');
  } finally {
    await stop(child);
  }

  const own = await started({ NODE_OPTIONS: '--max-semi-space-size=8 --max-old-space-size=512', MALLOC_ARENA_MAX: '4' });
  try {
    expect(own.cmdline.join(' ')).not.toContain('--max-semi-space-size=16');
    expect(own.cmdline.join(' ')).not.toContain('--max-old-space-size=1024');
    expect(own.environ).toContain('NODE_OPTIONS=--max-semi-space-size=8 --max-old-space-size=512');
    expect(own.environ).toContain('MALLOC_ARENA_MAX=4');
  } finally {
    await stop(own.child);
  }
});
