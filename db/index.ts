import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { log } from '~/lib/log.server';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export type DB = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: DB;
  dialect: Dialect;
  /** The PostgreSQL pool when on PostgreSQL (LISTEN/NOTIFY needs its own client). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// int8 (count(*), bigint columns) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string;
  /** SQLite file name inside dataDir (tests use their own). */
  sqliteFile?: string;
}

export function openDatabase(opts: OpenOptions): DbHandle {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that the server closes (restart, failover) is dropped by the pool and the
    // next query opens a new one: report it, never let it crash the process.
    pool.on('error', (e) => log.warn('database connection lost', { error: e.message }));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, opts.sqliteFile ?? 'site.sqlite');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * SQLite transactions take the write lock as they begin (`BEGIN IMMEDIATE`), not at their first
 * write. With several processes on one file (the cluster's workers, a second instance), a deferred
 * transaction that reads and then writes fails at once with "database is locked" when another
 * process wrote in between (its snapshot is stale, so busy_timeout does not apply); an immediate one
 * waits for the lock (busy_timeout) before it reads, so a read-then-write (the ledger's conditional
 * updates, membership's dues, the letters' claims) never fails that way. Reads outside a
 * transaction are not affected (WAL).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Kysely prepares every query anew; preparing cost as much as running the page's queries. Statements
 * are kept by SQL text (bounded, oldest dropped) and reused unless one is still being iterated.
 */
function withStatementCache(database: SQLite.Database, max = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(query: string) {
      const known = statements.get(query);
      if (known && !known.busy) return known;
      const statement = database.prepare(query);
      if (!known) {
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(query, statement);
      }
      return statement;
    },
  };
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // 029 was added after 030 had run on some databases (ADR 036): run a missing one in its turn.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Which migrations have run on this database and which have not. */
export async function migrationStatus(db: DB): Promise<{ executed: string[]; pending: string[] }> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const all = await migrator.getMigrations();
  return { executed: all.filter((m) => m.executedAt).map((m) => m.name), pending: all.filter((m) => !m.executedAt).map((m) => m.name) };
}

export async function ping(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}
