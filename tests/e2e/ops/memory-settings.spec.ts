import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../admin/server';

/**
 * `node server.js` starts itself again once, in place, with lean memory settings (ADR 017): V8's
 * young generation capped at 16 MiB semi-spaces and two glibc arenas. What `ps` shows of the
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

test('the server runs with lean memory settings unless the operator chose others', async () => {
  test.setTimeout(60_000);
  const { child, cmdline, environ } = await started({ NODE_OPTIONS: '', MALLOC_ARENA_MAX: undefined });
  try {
    expect(cmdline).toContain('--max-semi-space-size=16');
    expect(cmdline.at(-1)).toBe(path.join(root, 'server.js'));
    expect(environ).toContain('MALLOC_ARENA_MAX=2');
  } finally {
    await stop(child);
  }

  const own = await started({ NODE_OPTIONS: '--max-semi-space-size=8', MALLOC_ARENA_MAX: '4' });
  try {
    expect(own.cmdline.join(' ')).not.toContain('--max-semi-space-size=16');
    expect(own.environ).toContain('NODE_OPTIONS=--max-semi-space-size=8');
    expect(own.environ).toContain('MALLOC_ARENA_MAX=4');
  } finally {
    await stop(own.child);
  }
});
