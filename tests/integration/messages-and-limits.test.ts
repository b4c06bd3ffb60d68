import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessage } from '~/domain/messages/messages.server';
import { hitRateLimit, pruneRateLimits } from '~/lib/rate-limit.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

describeEachDialect('contact messages and rate limits on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  it('stores a contact message, unread, with its language', async () => {
    const saved = await createMessage(t.db, { firstName: 'Awa', lastName: 'Diallo', email: 'awa@example.org', message: 'Bonjour' }, 'es');
    const row = await t.db.selectFrom('messages').selectAll().where('id', '=', saved.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: 'Awa', last_name: 'Diallo', email: 'awa@example.org', message: 'Bonjour', language: 'es', read_at: null });
  });

  it('counts hits per key in a fixed window, then starts a new window', async () => {
    const now = 1_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(t.db, 'k:1', 3, 60_000, now + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfter).toBe(60);
    expect((await hitRateLimit(t.db, 'k:2', 3, 60_000, now)).allowed).toBe(true);
    const later = await hitRateLimit(t.db, 'k:1', 3, 60_000, now + 60_001);
    expect(later).toMatchObject({ allowed: true, count: 1 });
  });

  it('counts concurrent hits exactly', async () => {
    const hits = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(t.db, 'k:concurrent', 10, 60_000)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(10);
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('prunes expired windows', async () => {
    await hitRateLimit(t.db, 'k:old', 3, 10, 5);
    await pruneRateLimits(t.db, 1_000);
    const row = await t.db.selectFrom('rate_limits').select('key').where('key', '=', 'k:old').executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
