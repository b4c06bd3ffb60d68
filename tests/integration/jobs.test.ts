import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '~db/index';
import { onceAcrossInstances } from '~/domain/donations/deps.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

describeEachDialect('periodic jobs with several instances on %s', (dialect) => {
  let t: TestDb;
  let other: DbHandle;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    const url = t.pool ? (t.pool as unknown as { options: { connectionString: string } }).options.connectionString : undefined;
    other = openDatabase({ databaseUrl: url, dataDir: t.dataDir });
  });
  afterAll(async () => {
    await other.close();
    await t.destroy();
  });

  it('runs a job once per window, whichever instance asks first', async () => {
    let runs = 0;
    const job = async () => {
      runs++;
    };
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => onceAcrossInstances(t.db, 'recheck-test', 60_000, job)),
      ...Array.from({ length: 5 }, () => onceAcrossInstances(other.db, 'recheck-test', 60_000, job)),
    ]);
    expect(runs).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
    // Another job has its own window.
    expect(await onceAcrossInstances(other.db, 'another-job', 60_000, job)).toBe(true);
    expect(runs).toBe(2);
  });
});
