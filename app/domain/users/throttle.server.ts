import type { DB } from '~db/index';
import { clearRateLimit, hitRateLimit, peekRateLimit } from '~/lib/rate-limit.server';

/**
 * Throttling of sign-in and reset requests (ADR 005, per pair and per address since ADR 010),
 * over the database-backed counters of app/lib/rate-limit.server.ts, so that every instance
 * counts together. No HTTP: the pages answer 429, with Retry-After and `retryMessage`.
 */

export const AUTH_LIMIT = 5;
export const AUTH_WINDOW_MS = 15 * 60 * 1000;
/** Failures of one address on one account before it must wait for the window's end (ADR 010). */
export const PAIR_LIMIT = AUTH_LIMIT;
/** Failures of one address over every account (password spraying) before it must wait. */
export const ADDRESS_LIMIT = 20;
/** Failures on one account from anywhere that warn its owner; they never refuse anyone. */
export const NOTICE_AFTER = 10;

/** The counters of one kind of request (sign-in failures, reset requests): per pair, per address, per account. */
const throttleKeys = (kind: 'login' | 'reset', email: string, ip: string) => {
  const e = email.trim().toLowerCase();
  return { pair: `${kind}:pair:${e}|${ip}`, address: `${kind}:ip:${ip}`, account: `${kind}:account:${e}` };
};
const loginKeys = (email: string, ip: string) => throttleKeys('login', email, ip);

/**
 * Seconds to wait when this address failed too often on this account, or on every account, else
 * 0; and how many recent failures count towards a progressive delay. Failures on the account
 * from other addresses never count: a stranger cannot refuse the owner's password.
 */
export async function loginBlockedFor(database: DB, email: string, ip: string, now = Date.now()): Promise<{ retryAfter: number; failures: number }> {
  const keys = loginKeys(email, ip);
  const [pair, address] = await Promise.all([peekRateLimit(database, keys.pair, now), peekRateLimit(database, keys.address, now)]);
  const over = [pair.count >= PAIR_LIMIT ? pair : null, address.count >= ADDRESS_LIMIT ? address : null].filter((x) => x !== null);
  return {
    retryAfter: over.length ? Math.max(...over.map((x) => x.retryAfter)) : 0,
    failures: Math.max(pair.count, Math.floor(address.count / PAIR_LIMIT)),
  };
}

/** Counts a failure for the pair, the address and the account; returns the account's count. */
export async function recordLoginFailure(database: DB, email: string, ip: string, now = Date.now()): Promise<number> {
  const keys = loginKeys(email, ip);
  await hitRateLimit(database, keys.pair, PAIR_LIMIT, AUTH_WINDOW_MS, now);
  await hitRateLimit(database, keys.address, ADDRESS_LIMIT, AUTH_WINDOW_MS, now);
  return (await hitRateLimit(database, keys.account, NOTICE_AFTER, AUTH_WINDOW_MS, now)).count;
}

/** A successful sign-in forgets the pair's failures (not the address's: it may try others). */
export async function clearLoginFailures(database: DB, email: string, ip: string): Promise<void> {
  await clearRateLimit(database, loginKeys(email, ip).pair);
}

/**
 * Counts a reset request; returns the seconds to wait when over the limit, else 0. Counted per
 * (account, address) pair and per address, like sign-in failures (ADR 010): requests from
 * elsewhere never stop the owner's own reset mails.
 */
export async function hitResetLimit(database: DB, email: string, ip: string, now = Date.now()): Promise<number> {
  const keys = throttleKeys('reset', email, ip);
  const pair = await hitRateLimit(database, keys.pair, PAIR_LIMIT, AUTH_WINDOW_MS, now);
  const address = await hitRateLimit(database, keys.address, ADDRESS_LIMIT, AUTH_WINDOW_MS, now);
  return [pair, address].filter((x) => !x.allowed).reduce((max, x) => Math.max(max, x.retryAfter), 0);
}

export function retryMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`;
}

