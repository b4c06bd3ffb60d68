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

  it('costs what a real hash costs: the dummy hash has the same algorithm, version and parameters as a password hashed now', async () => {
    // argon2's time is set by its parameters (memory, iterations, lanes), written in the hash's PHC
    // header; equal headers mean the same work, whatever the machine's load (a timing comparison
    // was flaky on a busy CI machine, and speed is the benchmarks' business).
    const header = (h: string) => h.split('$').slice(1, 4).join('$');
    const real = await hashPassword('le vrai mot de passe du compte');
    expect(header(real)).toMatch(/^argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
    expect(header(DUMMY_HASH)).toBe(header(real));
    // And it is a hash argon2 accepts (a malformed one would fail fast, and the time would tell).
    verified.length = 0;
    expect(await verifyPassword(DUMMY_HASH, 'pas le bon')).toBe(false);
    expect(verified).toEqual([DUMMY_HASH]);
  });
});
