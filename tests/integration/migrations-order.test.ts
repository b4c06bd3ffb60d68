import { afterAll, beforeAll, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { migrateToLatest, migrationStatus } from '~db/index';
import { migrations } from '~db/migrations/index';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

/**
 * Migration 029 (ADR 036) came after 030 had run on some databases: such a database runs 029 next
 * instead of refusing to start.
 */
describeEachDialect('a migration added before the last one run, on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect, { migrate: false });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('a database that ran 030 without 029 runs 029 and then has nothing pending', async () => {
    const without = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== '029-import-records'));
    const { error } = await new Migrator({ db: t.db, provider: { getMigrations: async () => without } }).migrateToLatest();
    expect(error).toBeUndefined();
    expect((await migrationStatus(t.db)).pending).toEqual(['029-import-records']);
    await migrateToLatest(t.db);
    expect((await migrationStatus(t.db)).pending).toEqual([]);
    expect(await t.db.selectFrom('import_records').selectAll().execute()).toEqual([]);
  });
});
