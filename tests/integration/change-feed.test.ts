import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChangeFeed, type ChangeFeed } from '~/lib/change-feed.server';
import { createTestDb, describeOnDialects, type TestDb } from '../support/db';

// Always defined; skipped (and counted) when this run has no PostgreSQL.
describeOnDialects([['postgres']] as const, 'content changes between instances (%s LISTEN/NOTIFY)', () => {
  let t: TestDb;
  let a: ChangeFeed;
  let b: ChangeFeed;
  const seen = { a: 0, b: 0 };
  beforeAll(async () => {
    t = await createTestDb('postgres');
    const url = (t.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    a = startChangeFeed(t, url, () => seen.a++);
    b = startChangeFeed(t, url, () => seen.b++);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await t.destroy();
  });

  it('a change published by one instance reaches the other', async () => {
    // Each feed reports once when it starts listening (changes it may have missed).
    await expect.poll(() => seen.a + seen.b, { timeout: 5000 }).toBe(2);
    await a.publish();
    // NOTIFY reaches every listener, the publisher included, each on its own connection and in no
    // set order: wait for both (CI once saw b's notification arrive before a's).
    await expect.poll(() => ({ ...seen }), { timeout: 5000 }).toEqual({ a: 2, b: 2 });
  });
});

describe('on SQLite', () => {
  it('there is one instance: publishing succeeds and tells no one, even with a database URL given', async () => {
    const t = await createTestDb('sqlite');
    const calls: string[] = [];
    const feed = startChangeFeed(t, 'postgres://127.0.0.1:1/none', () => calls.push('change'));
    try {
      await expect(feed.publish()).resolves.toBeUndefined();
      // A feed that started listening would report once on connecting; give it the chance to.
      await new Promise((r) => setTimeout(r, 50));
      expect(calls).toEqual([]);
    } finally {
      await feed.close();
      await t.destroy();
    }
  });
});
