import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db';

/**
 * SQLite only: how a transaction shares the file with another process (the cluster's workers, a
 * second instance). PostgreSQL's transactions do not take a file lock.
 */
let t: TestDb;
let other: SQLite.Database;
const now = () => new Date().toISOString();

beforeEach(async () => {
  t = await createTestDb('sqlite');
  // Another process's connection to the same file, which does not wait for a lock.
  other = new SQLite(path.join(t.dataDir, 'site.sqlite'));
  other.pragma('busy_timeout = 0');
});
afterEach(async () => {
  other.close();
  await t.destroy();
});

it('a transaction that reads then writes is not broken by another process writing in between: the other waits for it', async () => {
  const otherWrites = () => other.prepare('insert into settings (key, value, version, updated_at) values (?, ?, 1, ?)').run('from-other', '1', now());
  await t.db.transaction().execute(async (trx) => {
    await trx.selectFrom('settings').select('key').execute();
    // The other process cannot slip a write between our read and our write…
    expect(otherWrites).toThrow(/locked|busy/i);
    // …so ours, decided on what we read, goes through.
    await trx.insertInto('settings').values({ key: 'from-us', value: '1', version: 1, updated_at: now() }).execute();
  });
  // Once we committed, the other process writes as usual.
  otherWrites();
  const keys = (await t.db.selectFrom('settings').select('key').where('key', 'in', ['from-us', 'from-other']).execute()).map((r) => r.key).sort();
  expect(keys).toEqual(['from-other', 'from-us']);
});
