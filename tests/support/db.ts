import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { migrateToLatest, openDatabase, type DbHandle, type Dialect } from '~db/index';

/**
 * Data-layer tests run on every dialect: SQLite always, PostgreSQL when TEST_DATABASE_URL is set
 * (`.ci/run` sets it when a server answers). Each call gets a fresh, migrated database of its own.
 */
export const ALL_DIALECTS: Dialect[] = ['sqlite', 'postgres'];
/** The dialects this run can reach. */
export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ALL_DIALECTS : ['sqlite'];

/**
 * Defines `fn` once per case (one dialect, or a pair for backup → restore), the `%s` in the title
 * replaced by each dialect in turn. A case that needs PostgreSQL when this run has none is still
 * defined, as skipped, so it is counted in the closing line instead of vanishing (ADR 011).
 */
export function describeOnDialects(cases: readonly (readonly Dialect[])[], title: string, fn: (...dialects: Dialect[]) => void): void {
  for (const c of cases) {
    let name = title;
    for (const d of c) name = name.replace('%s', d);
    const unavailable = c.some((d) => !DIALECTS.includes(d));
    describe.skipIf(unavailable)(unavailable ? `${name} (skipped: TEST_DATABASE_URL is not set)` : name, () => fn(...c));
  }
}

/** One suite per dialect, PostgreSQL counted as skipped when it cannot run. */
export function describeEachDialect(title: string, fn: (dialect: Dialect) => void): void {
  describeOnDialects(ALL_DIALECTS.map((d) => [d]), title, fn);
}

export interface TestDb extends DbHandle {
  dataDir: string;
  /** Closes and deletes the database and its data directory. */
  destroy(): Promise<void>;
}

/**
 * A fresh database of its own. Migrated, it is a copy of the run's migrated template
 * (tests/support/db-templates.ts) where there is one; else (`migrate: false`, or a file run outside
 * the project's Vitest configuration) it is made and migrated here.
 */
export async function createTestDb(dialect: Dialect, { migrate = true } = {}): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-test-'));
  const template = migrate ? templateOf(dialect) : '';
  if (template && dialect === 'sqlite') fs.copyFileSync(template, path.join(dataDir, 'site.sqlite'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const name = `thv_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const handle = openDatabase({ databaseUrl, dataDir });
  if (migrate && !template) await migrateToLatest(handle.db);
  return {
    ...handle,
    dataDir,
    async destroy() {
      await handle.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The run's migrated template for a dialect ('' when the global set-up did not make one). */
function templateOf(dialect: Dialect): string {
  try {
    return (dialect === 'sqlite' ? inject('sqliteTemplate') : inject('pgTemplate')) ?? '';
  } catch {
    return '';
  }
}
