// `npm run restore -- FILE`: restores a backup into an empty DATA_DIR or database (DATABASE_URL).
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '~db/index';
import { restoreBackup } from '~/lib/backup.server';
import { parseEnv } from '~/lib/env.server';
import { storageFromEnv } from '~/lib/storage.server';

const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error('Usage: npm run restore -- FILE (an archive made by npm run backup)');
  process.exit(2);
}
const env = parseEnv();
const dataDir = path.resolve(env.DATA_DIR);
const handle = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
try {
  const manifest = await restoreBackup(handle, storageFromEnv(env, dataDir), file);
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  console.log(`Restored ${rows} rows in ${Object.keys(manifest.tables).length} tables and ${manifest.files.length} files from ${file} (taken ${manifest.createdAt}).`);
} catch (e) {
  console.error(`Restore failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
