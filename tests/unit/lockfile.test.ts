import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` refuses a lock file that lacks a package another one names, and platform packages
 * (macOS, Windows, musl, arm64…) are only written when the registry held them at lock time. This
 * is what `npm ci` on another platform would trip over, checked here on any platform.
 */
type LockEntry = { version?: string; optionalDependencies?: Record<string, string>; dependencies?: Record<string, string>; hasInstallScript?: boolean };
const lock = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where Node's resolution would find `dep` from the package at `from` (nearest node_modules up). */
function resolveInLock(from: string, dep: string): LockEntry | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[candidate]) return lock.packages[candidate];
    if (!dir) return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

describe('package-lock.json', () => {
  it('is a v3 lock file', () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it('holds every optional (platform) dependency of every package, for every platform', () => {
    const missing: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolveInLock(where, dep)) missing.push(`${where || '(root)'} → ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('holds every regular dependency of every package', () => {
    const missing: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.dependencies ?? {})) {
        if (!resolveInLock(where, dep)) missing.push(`${where || '(root)'} → ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('marks every installed package that has an install script, as npm install would (so a fresh install leaves the lock unchanged)', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const unmarked: string[] = [];
    let seen = 0;
    for (const [where, entry] of Object.entries(lock.packages)) {
      const dir = path.join(root, where);
      if (!where || !fs.existsSync(path.join(dir, 'package.json'))) continue;
      seen += 1;
      const scripts = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      // npm counts a binding.gyp as an install script (node-gyp rebuild) when the package names none.
      const installs = ['preinstall', 'install', 'postinstall'].some((k) => k in scripts) || fs.existsSync(path.join(dir, 'binding.gyp'));
      if (installs && !entry.hasInstallScript) unmarked.push(where);
    }
    expect(seen).toBeGreaterThan(100);
    expect(unmarked).toEqual([]);
  });
});
