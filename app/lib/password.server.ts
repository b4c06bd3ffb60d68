import { hash, verify } from '@node-rs/argon2';

/** argon2id with the settled parameters: 64 MiB, 3 passes, 1 lane. */
/** `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot read). */
const OPTIONS = { algorithm: 2, memoryCost: 65536, timeCost: 3, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash with the same parameters: checking it costs what a real check costs (its answer is ignored). */
export const DUMMY_HASH = '$argon2id$v=19$m=65536,t=3,p=1$Ar4INz98v4CudATIBxb25g$y8AA9SNegDSotJDyrPau2RYhHdn3WEPhRYjBcNPg1kg';

/**
 * Checks a password against a stored hash. Without a hash (unknown email, invitation not yet
 * accepted) a dummy hash is checked anyway, so the answer takes as long either way.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(DUMMY_HASH, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
