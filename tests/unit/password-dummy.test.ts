import { performance } from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';

/** Every argon2 verification the password module makes, with the hash it was given. */
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hashed: string, ...rest: Parameters<typeof real.verify> extends [unknown, ...infer R] ? R : never) => {
      verified.push(hashed);
      return real.verify(hashed, ...rest);
    },
  };
});

const { DUMMY_HASH, hashPassword, verifyPassword } = await import('~/lib/password.server');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * An account without a password hash (unknown email, invitation not accepted) costs one argon2id
 * verification of the dummy hash, as a real account does (ADR 010): sign-in time tells nobody
 * which emails have accounts.
 */
describe('verifying a password without a stored hash', () => {
  it('runs argon2 on the dummy hash, and answers no', async () => {
    for (const stored of [undefined, null, '']) {
      verified.length = 0;
      expect(await verifyPassword(stored, 'un mot de passe quelconque')).toBe(false);
      expect(verified, String(stored)).toEqual([DUMMY_HASH]);
    }
  });

  it('takes about as long as checking a real hash (medians of several runs)', async () => {
    const real = await hashPassword('le vrai mot de passe du compte');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(() => verifyPassword(real, 'pas le bon')));
      unknown.push(await timed(() => verifyPassword(undefined, 'pas le bon')));
    }
    // Generous bounds: the same work costs the same, give or take a busy machine; no work is ~0.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
