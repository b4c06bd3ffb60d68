import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The check is plain CommonJS so that any Node.js can parse it; loaded here the same way.
const require = createRequire(import.meta.url);
const root = path.join(import.meta.dirname, '..', '..');
const check = require(path.join(root, 'scripts', 'check-node.cjs')) as {
  nodeVersionProblem(found: string, range: string): string | null;
  requiredRange(): string;
};
const range = check.requiredRange();

describe('Node.js version check (npm start)', () => {
  it('reads the range from package.json engines, the one npm install enforces through engine-strict', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { engines: { node: string } };
    expect(range).toBe(pkg.engines.node);
  });

  it.each(['24.15.0', 'v24.21.0', '26.1.0', '22.22.2', '22.30.1'])('accepts Node.js %s', (found) => {
    expect(check.nodeVersionProblem(found, range)).toBeNull();
  });

  it.each(['20.20.2', 'v18.19.0', '22.22.1', '22.0.0', '23.11.0', '24.14.9', '12.22.12'])('refuses Node.js %s with one sentence', (found) => {
    const problem = check.nodeVersionProblem(found, range);
    expect(problem).toBe(
      `This site needs Node.js 22.22.2 (or a later 22.x) or 24.15.0 or newer, but this machine runs Node.js ${found.replace(/^v/, '')}: ` +
        'install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`) and run the command again.',
    );
    expect(problem?.split('\n')).toHaveLength(1);
  });

  it('describes exact and >= ranges too', () => {
    expect(check.nodeVersionProblem('20.1.0', '>=22.22')).toMatch(/^This site needs Node\.js 22\.22 or newer, but this machine runs Node\.js 20\.1\.0: /);
    expect(check.nodeVersionProblem('22.22.0', '>=22.22')).toBeNull();
    expect(check.nodeVersionProblem('24.1.0', '24.1.0')).toBeNull();
  });

  it('lets the running Node.js through: the script exits 0 and prints nothing', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-node.cjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
