import { afterAll, beforeAll, expect, it } from 'vitest';
import { clearRateLimit, hitRateLimit, peekRateLimit, pruneRateLimits } from '~/lib/rate-limit.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

/** The fixed window's edges, on a clock the test sets (mutation testing, ADR 011). */
describeEachDialect('rate limit windows on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('counts up to the limit, says when to retry (rounded up), and restarts exactly at the window end', async () => {
    const t0 = 1_000_000;
    expect(await hitRateLimit(t.db, 'edge', 2, 10_000, t0)).toEqual({ allowed: true, count: 1, retryAfter: 10 });
    expect(await hitRateLimit(t.db, 'edge', 2, 10_000, t0 + 1)).toEqual({ allowed: true, count: 2, retryAfter: 10 });
    expect(await hitRateLimit(t.db, 'edge', 2, 10_000, t0 + 8_500)).toEqual({ allowed: false, count: 3, retryAfter: 2 });
    expect(await peekRateLimit(t.db, 'edge', t0 + 9_999)).toEqual({ count: 3, retryAfter: 1 });
    // At the very end of the window it is over: counted anew, and peek sees nothing.
    expect(await peekRateLimit(t.db, 'edge', t0 + 10_000)).toEqual({ count: 0, retryAfter: 0 });
    expect(await hitRateLimit(t.db, 'edge', 2, 10_000, t0 + 10_000)).toEqual({ allowed: true, count: 1, retryAfter: 10 });
  });

  it('forgets a key on request, and prunes only the windows that are over', async () => {
    await hitRateLimit(t.db, 'clear-me', 5, 1_000, 0);
    await hitRateLimit(t.db, 'keep-me', 5, 1_000, 0);
    await clearRateLimit(t.db, 'clear-me');
    expect(await peekRateLimit(t.db, 'clear-me', 10)).toEqual({ count: 0, retryAfter: 0 });
    expect(await peekRateLimit(t.db, 'keep-me', 10)).toEqual({ count: 1, retryAfter: 1 });

    await hitRateLimit(t.db, 'ends-at-2000', 5, 2_000, 0);
    await pruneRateLimits(t.db, 1_000);
    const keys = async () => (await t.db.selectFrom('rate_limits').select('key').where('key', 'in', ['keep-me', 'ends-at-2000']).orderBy('key').execute()).map((r) => r.key);
    expect(await keys()).toEqual(['ends-at-2000']);
    await pruneRateLimits(t.db, 1_999);
    expect(await keys()).toEqual(['ends-at-2000']);
    await pruneRateLimits(t.db, 2_000);
    expect(await keys()).toEqual([]);
  });
});
