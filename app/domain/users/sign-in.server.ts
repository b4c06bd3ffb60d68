import type { DB } from '~db/index';
import { ANONYMOUS, audit } from '~/domain/audit/audit.server';
import { clearLoginFailures, loginBlockedFor, NOTICE_AFTER, recordLoginFailure } from './throttle.server';
import { findCredentials } from './users.server';

/**
 * Signing in, with throttling that a stranger cannot turn against an account's owner (ADR 010):
 *  - failures are counted per (account, address) pair and per address; only those refuse (429),
 *    so failures from elsewhere never refuse the right password from a new address;
 *  - each recent failure of the pair (or every fifth of the address) slows the next answer by
 *    DELAY_STEP_MS, up to five steps, instead of locking anything;
 *  - failures on an account from anywhere are counted only to warn its owner by mail (once per
 *    window) and in the audit log;
 *  - an unknown email costs the same password-hash work as a known one (`verify` is given no
 *    hash and checks a dummy one).
 */

export const DELAY_STEP_MS = 200;
const MAX_DELAY_STEPS = 5;

export interface SignInDeps {
  /** Checks a password against a stored hash; given no hash, checks a dummy one at the same cost. */
  verify(stored: string | null | undefined, password: string): Promise<boolean>;
  /** Tells the owner that their account saw repeated failed sign-ins. */
  notify(user: { id: string; name: string; email: string }, failures: number): Promise<void>;
  sleep(ms: number): Promise<void>;
  now?: () => number;
}

export type SignInResult =
  | { ok: true; user: { id: string; name: string; email: string } }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfter: number };

export async function signIn(db: DB, input: { email: string; password: string; ip: string }, deps: SignInDeps): Promise<SignInResult> {
  const now = deps.now?.() ?? Date.now();
  const email = input.email.trim().toLowerCase();
  const blocked = await loginBlockedFor(db, email, input.ip, now);
  if (blocked.retryAfter) {
    await audit(db, ANONYMOUS, 'auth.login_blocked', email, { ip: input.ip });
    return { ok: false, reason: 'throttled', retryAfter: blocked.retryAfter };
  }
  const steps = Math.min(blocked.failures, MAX_DELAY_STEPS);
  if (steps) await deps.sleep(steps * DELAY_STEP_MS);

  const user = await findCredentials(db, email);
  const valid = await deps.verify(user?.password_hash, input.password);
  if (user && valid) {
    await clearLoginFailures(db, email, input.ip);
    await audit(db, { id: user.id, name: user.name }, 'auth.login', user.email, { ip: input.ip });
    return { ok: true, user: { id: user.id, name: user.name, email: user.email } };
  }

  const accountFailures = await recordLoginFailure(db, email, input.ip, now);
  await audit(db, user ? { id: user.id, name: user.name } : ANONYMOUS, 'auth.login_failed', email, { ip: input.ip });
  if (user && accountFailures === NOTICE_AFTER) {
    await deps.notify({ id: user.id, name: user.name, email: user.email }, accountFailures);
    await audit(db, ANONYMOUS, 'auth.failures_notice', user.email, { failures: accountFailures });
  }
  return { ok: false, reason: 'invalid' };
}
