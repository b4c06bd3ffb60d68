import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationStatus, type DbHandle } from '~db/index';
import { migrations } from '~db/migrations/index';
import type { Storage } from './storage.server';

/**
 * Backups: one .tar.gz holding a manifest, every table as JSON lines and every media file the
 * site knows (the `media` table's files and variants). The same format for SQLite and PostgreSQL,
 * so an archive restores on either. Tables are read in one snapshot transaction while the site
 * runs; a restore goes into an empty database, in one transaction, in foreign-key order.
 */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  migrations: string[];
  tables: Record<string, number>;
  files: string[];
}

const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
const BATCH = 200;

async function listTables(handle: DbHandle): Promise<string[]> {
  const db = handle.db;
  const rows =
    handle.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)).rows;
  return rows.map((r) => r.name).filter((n) => !MIGRATION_TABLES.has(n));
}

/** Parent tables first, so that foreign keys are satisfied while rows are inserted. */
async function foreignKeyOrder(handle: DbHandle, tables: string[]): Promise<string[]> {
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  if (handle.dialect === 'sqlite') {
    for (const t of tables) {
      const fks = (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${t})`.execute(handle.db)).rows;
      for (const fk of fks) if (fk.table !== t) parents.get(t)?.add(fk.table);
    }
  } else {
    const fks = (
      await sql<{ child: string; parent: string }>`
        select tc.table_name as child, ccu.table_name as parent
        from information_schema.table_constraints tc
        join information_schema.constraint_column_usage ccu
          on tc.constraint_name = ccu.constraint_name and tc.table_schema = ccu.table_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(handle.db)
    ).rows;
    for (const fk of fks) if (fk.child !== fk.parent) parents.get(fk.child)?.add(fk.parent);
  }
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (t: string) => {
    if (ordered.includes(t) || visiting.has(t)) return;
    visiting.add(t);
    for (const p of parents.get(t) ?? []) if (tables.includes(p)) visit(p);
    ordered.push(t);
  };
  tables.forEach(visit);
  return ordered;
}

function mediaKeys(row: { storage_key: string; variants: string }): string[] {
  const variants = JSON.parse(row.variants || '[]') as { key: string }[];
  return [row.storage_key, ...variants.map((v) => v.key)];
}

export async function createBackup(handle: DbHandle, storage: Storage, outFile: string): Promise<BackupManifest> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-backup-'));
  try {
    fs.mkdirSync(path.join(work, 'tables'));
    fs.mkdirSync(path.join(work, 'media'));
    const tables = await listTables(handle);
    const counts: Record<string, number> = {};
    const keys: string[] = [];
    // One consistent snapshot of every table, while the site keeps writing.
    const snapshot = async (trx: typeof handle.db) => {
      for (const table of tables) {
        const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(trx)).rows;
        counts[table] = rows.length;
        fs.writeFileSync(path.join(work, 'tables', `${table}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
        if (table === 'media') for (const r of rows) keys.push(...mediaKeys(r as { storage_key: string; variants: string }));
      }
    };
    if (handle.dialect === 'postgres') {
      await handle.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
        await sql`set transaction read only`.execute(trx);
        await snapshot(trx);
      });
    } else {
      await handle.db.transaction().execute(snapshot);
    }
    const files: string[] = [];
    for (const key of keys) {
      const data = await storage.get(key);
      if (!data) continue; // a row whose file vanished: nothing to save
      fs.writeFileSync(path.join(work, 'media', key), data);
      files.push(key);
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      dialect: handle.dialect,
      migrations: (await migrationStatus(handle.db)).executed,
      tables: counts,
      files,
    };
    fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
    const tmp = `${outFile}.partial`;
    const tar = await import('tar');
    await tar.c({ gzip: true, file: tmp, cwd: work, portable: true }, ['manifest.json', 'tables', 'media']);
    fs.renameSync(tmp, outFile);
    return manifest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export class RestoreError extends Error {}

const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', pdf: 'application/pdf' };
function contentTypeOf(key: string): string {
  return TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * Restores an archive into an empty database and storage: migrations up to the archive's version,
 * its rows, its files, then the remaining migrations. Refuses a database that already has content.
 */
export async function restoreBackup(handle: DbHandle, storage: Storage, file: string): Promise<BackupManifest> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-restore-'));
  try {
    const tar = await import('tar');
    await tar.x({ file, cwd: work, strict: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== 1) throw new RestoreError(`Unknown backup format: ${String(manifest.format)}`);
    const known = Object.keys(migrations);
    const unknown = manifest.migrations.filter((m) => !known.includes(m));
    if (unknown.length) throw new RestoreError(`This backup comes from a newer version (migrations ${unknown.join(', ')}): upgrade first.`);

    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    const last = manifest.migrations.at(-1);
    if (last) {
      const { error } = await migrator.migrateTo(last);
      if (error) throw error;
    }
    const tables = await listTables(handle);
    // A site that ever started has its seed marker in `settings` (and usually users): only rows
    // that migrations themselves insert may exist in the target.
    for (const table of ['settings', 'users', 'messages'].filter((t) => tables.includes(t))) {
      const { n } = (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(handle.db)).rows[0];
      if (Number(n) > 0) throw new RestoreError(`The database is not empty (table ${table} has rows): restore into an empty database.`);
    }
    const missing = Object.keys(manifest.tables).filter((t) => !tables.includes(t));
    if (missing.length) throw new RestoreError(`Tables missing after migration: ${missing.join(', ')}`);

    const order = await foreignKeyOrder(handle, Object.keys(manifest.tables));
    await handle.db.transaction().execute(async (trx) => {
      for (const table of [...order].reverse()) await trx.deleteFrom(table as never).execute();
      for (const table of order) {
        const input = fs.createReadStream(path.join(work, 'tables', `${table}.jsonl`));
        let batch: Record<string, unknown>[] = [];
        const flush = async () => {
          if (batch.length) await trx.insertInto(table as never).values(batch as never).execute();
          batch = [];
        };
        for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
          if (!line) continue;
          batch.push(JSON.parse(line));
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      }
    });
    for (const key of manifest.files) {
      await storage.put(key, fs.readFileSync(path.join(work, 'media', key)), contentTypeOf(key));
    }
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    return manifest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
