import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDefaults } from '~db/seed';
import { createMessage } from '~/domain/messages/messages.server';
import { createBackup, restoreBackup, RestoreError } from '~/lib/backup.server';
import { diskStorage } from '~/lib/storage.server';
import { ALL_DIALECTS, createTestDb, describeEachDialect, describeOnDialects, type TestDb } from '../support/db';

async function snapshot(t: TestDb) {
  const tables =
    t.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(t.db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(t.db)).rows;
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db)).rows;
    out[name] = rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b))))).sort();
  }
  return out;
}

function files(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, fs.readFileSync(path.join(dir, f)).toString('base64')]));
}

const pairs = ALL_DIALECTS.flatMap((from) => ALL_DIALECTS.map((to) => [from, to] as const));

describeOnDialects(pairs, 'backup on %s, restore on %s', (from, to) => {
  let source: TestDb;
  let target: TestDb;
  let archive: string;
  beforeAll(async () => {
    source = await createTestDb(from);
    await seedDefaults(source.db, diskStorage(path.join(source.dataDir, 'media')));
    await createMessage(source.db, { firstName: 'Awa', lastName: 'D', email: 'awa@example.org', message: 'Bonjour « ici »\nligne 2' }, 'fr');
    archive = path.join(source.dataDir, 'backups', 'b.tar.gz');
    target = await createTestDb(to, { migrate: false });
  });
  afterAll(async () => {
    await source.destroy();
    await target.destroy();
  });

  it('gives back every table row and every media file', async () => {
    const manifest = await createBackup(source, diskStorage(path.join(source.dataDir, 'media')), archive);
    expect(manifest.tables.messages).toBe(1);
    expect(manifest.files.length).toBeGreaterThan(20);
    await restoreBackup(target, diskStorage(path.join(target.dataDir, 'media')), archive);
    expect(await snapshot(target)).toEqual(await snapshot(source));
    const restoredFiles = files(path.join(target.dataDir, 'media'));
    expect(Object.keys(restoredFiles).sort()).toEqual([...manifest.files].sort());
    expect(restoredFiles).toEqual(Object.fromEntries(Object.entries(files(path.join(source.dataDir, 'media'))).filter(([k]) => manifest.files.includes(k))));
  });

  it('refuses to restore over existing content', async () => {
    await expect(restoreBackup(target, diskStorage(path.join(target.dataDir, 'media')), archive)).rejects.toBeInstanceOf(RestoreError);
  });
});

describeEachDialect('a migration at start on %s', (dialect) => {
  it('takes a backup first when the site has data, and not on a new site', async () => {
    const { Migrator } = await import('kysely/migration');
    const { migrations } = await import('~db/migrations/index');
    const { backupBeforeMigrating } = await import('~/lib/runtime.server');
    const t = await createTestDb(dialect, { migrate: false });
    try {
      const storage = diskStorage(path.join(t.dataDir, 'media'));
      await backupBeforeMigrating(t, storage, t.dataDir);
      expect(fs.existsSync(path.join(t.dataDir, 'backups'))).toBe(false);
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      await migrator.migrateTo('001-content');
      await seedDefaults(t.db, storage);
      await backupBeforeMigrating(t, storage, t.dataDir);
      const taken = fs.readdirSync(path.join(t.dataDir, 'backups'));
      expect(taken).toHaveLength(1);
      expect(taken[0]).toMatch(/^before-002-auth-.*\.tar\.gz$/);
    } finally {
      await t.destroy();
    }
  });
});
