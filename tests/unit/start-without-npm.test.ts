import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState } from '../../scripts/build-state.js';

/**
 * `node server.js`, the start command for production and containers (README, "Run it"), makes
 * `npm start`'s checks without npm: a Node.js too old, or no build, stops it with one sentence.
 * Tried on a copy of the files it needs, in a temporary folder (the real build is not touched).
 */
const root = path.join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function copy(engines: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-start-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'scripts'));
  for (const f of ['server.js', 'scripts/check-node.cjs', 'scripts/build-state.js']) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', engines: { node: engines } }));
  return dir;
}

const start = (dir: string) => spawnSync(process.execPath, ['server.js'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, THV_MEMORY_SET: '' }, timeout: 20_000 });

describe('node server.js without npm', () => {
  it('stops on a Node.js too old, with the sentence npm start prints', () => {
    const run = start(copy('>=99.0.0'));
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`This site needs Node.js 99.0.0 or newer, but this machine runs Node.js ${process.versions.node}: install Node.js 24 LTS (https://nodejs.org/en/download, or \`nvm install 24\`) and run the command again.`);
  });

  it('stops when the site is not built, and says how to build it', () => {
    const run = start(copy('>=22'));
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('The site is not built: run `npm run build` first (or `npm start`, which builds when needed).');
  });
});

describe('buildState', () => {
  it('missing, fresh, then stale once a source is newer than the build', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-build-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'app'));
    fs.writeFileSync(path.join(dir, 'app', 'root.tsx'), '');
    expect(buildState(dir)).toBe('missing');
    fs.mkdirSync(path.join(dir, 'build', 'server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'build', 'server', 'index.js'), '');
    fs.writeFileSync(path.join(dir, 'build', '.stamp'), '');
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'app', 'root.tsx'), past, past);
    fs.utimesSync(path.join(dir, 'app'), past, past);
    expect(buildState(dir)).toBe('fresh');
    fs.utimesSync(path.join(dir, 'app', 'root.tsx'), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(buildState(dir)).toBe('stale');
  });
});
