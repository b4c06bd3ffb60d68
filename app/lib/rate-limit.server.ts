import { sql } from 'kysely';
import type { DB } from '~db/index';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed-window counter kept in the database, so that every instance counts together. One atomic
 * upsert per hit: the window restarts once it has expired.
 */
export async function hitRateLimit(db: DB, key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
  const resetAt = now + windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  return { allowed: count <= limit, count, retryAfter: Math.max(0, Math.ceil((Number(row.reset_at) - now) / 1000)) };
}

/** Forgets a key (a successful sign-in clears its failures, for example). */
export async function clearRateLimit(db: DB, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Removes expired windows; called periodically. */
export async function pruneRateLimits(db: DB, now = Date.now()): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}

/** The current count of a key without counting a hit (0 when its window has expired). */
export async function peekRateLimit(db: DB, key: string, now = Date.now()): Promise<{ count: number; retryAfter: number }> {
  const row = await db.selectFrom('rate_limits').select(['count', 'reset_at']).where('key', '=', key).executeTakeFirst();
  if (!row || Number(row.reset_at) <= now) return { count: 0, retryAfter: 0 };
  return { count: Number(row.count), retryAfter: Math.max(0, Math.ceil((Number(row.reset_at) - now) / 1000)) };
}
