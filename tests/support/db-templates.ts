import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '~db/index';

/**
 * Vitest's global set-up: one migrated database per dialect, made once per run, which each data-layer
 * test's fresh database copies (tests/support/db.ts) instead of running every migration again. On
 * PostgreSQL a test database was some 2.5 s of migrations; `CREATE DATABASE … TEMPLATE` copies the
 * migrated one in a tenth of that. The copies are exactly what `migrateToLatest` leaves (the
 * template is made by it), and tests that exercise the migrations themselves still start empty
 * (`createTestDb(d, { migrate: false })`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    sqliteTemplate: string;
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-template-'));
  const sqlite = openDatabase({ dataDir: sqliteDir });
  await migrateToLatest(sqlite.db);
  await sqlite.close();
  project.provide('sqliteTemplate', path.join(sqliteDir, 'site.sqlite'));

  const base = process.env.TEST_DATABASE_URL;
  let pgTemplate = '';
  if (base) {
    pgTemplate = `thv_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(base, `CREATE DATABASE ${pgTemplate}`);
    const url = new URL(base);
    url.pathname = `/${pgTemplate}`;
    const handle = openDatabase({ databaseUrl: url.toString(), dataDir: sqliteDir });
    await migrateToLatest(handle.db);
    // A template may have no session open while it is copied.
    await handle.close();
  }
  project.provide('pgTemplate', pgTemplate);

  return async () => {
    if (base && pgTemplate) await adminQuery(base, `DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
    fs.rmSync(sqliteDir, { recursive: true, force: true });
  };
}

async function adminQuery(base: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
