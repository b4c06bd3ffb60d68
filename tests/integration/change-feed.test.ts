import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChangeFeed, type ChangeFeed } from '~/lib/change-feed.server';
import { createTestDb, DIALECTS, type TestDb } from '../support/db';

// Defined only where PostgreSQL is available (DIALECTS includes it), like every data-layer suite.
const onPostgres = DIALECTS.includes('postgres') ? [true] : [];

describe.each(onPostgres)('content changes between instances (PostgreSQL LISTEN/NOTIFY)', () => {
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
    await expect.poll(() => seen.b, { timeout: 5000 }).toBe(2);
    expect(seen.a).toBe(2);
  });
});

describe('on SQLite', () => {
  it('there is one instance and nothing to tell', async () => {
    const t = await createTestDb('sqlite');
    const feed = startChangeFeed(t, undefined, () => {
      throw new Error('not expected');
    });
    await feed.publish();
    await feed.close();
    await t.destroy();
  });
});
