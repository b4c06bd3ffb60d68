import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '~/lib/env.server';
import { startRuntime, stopRuntime } from '~/lib/runtime.server';
import { runtimeHooks } from '../../server/runtime-hooks';
import type { Dialect } from '~db/index';
import { createTestDb, type TestDb } from './db';

/**
 * The app's runtime started as the server starts it, for calling a route's loader or action
 * directly: a fresh data folder, and on PostgreSQL a database of its own (`env` adds variables, such
 * as the providers' API bases pointing at their fakes). `stop` ends it all.
 */
export async function startTestRuntime(dialect: Dialect, appSecret: string, env: Record<string, string> = {}): Promise<{ stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-runtime-'));
  let t: TestDb | undefined;
  let databaseUrl = '';
  if (dialect === 'postgres') {
    t = await createTestDb('postgres');
    databaseUrl = (t.pool as unknown as { options: { connectionString: string } }).options.connectionString;
  }
  await startRuntime(parseEnv({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, APP_SECRET: appSecret, LOG_LEVEL: 'error', ADMIN_EMAIL: '', ADMIN_PASSWORD: '', SMTP_URL: '', ...env }), runtimeHooks);
  return {
    stop: async () => {
      await stopRuntime();
      await t?.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
