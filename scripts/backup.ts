// `npm run backup [-- FILE]`: one archive with the database and the media files, taken while the
// site runs. Default file: DATA_DIR/backups/backup-<date>.tar.gz.
import path from 'node:path';
import { openDatabase } from '~db/index';
import { createBackup } from '~/lib/backup.server';
import { parseEnv } from '~/lib/env.server';
import { storageFromEnv } from '~/lib/storage.server';

const env = parseEnv();
const dataDir = path.resolve(env.DATA_DIR);
const out = process.argv[2] ?? path.join(dataDir, 'backups', `backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
const handle = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
try {
  const manifest = await createBackup(handle, storageFromEnv(env, dataDir), out);
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  console.log(`Backup written to ${out}: ${Object.keys(manifest.tables).length} tables, ${rows} rows, ${manifest.files.length} files.`);
} catch (e) {
  console.error(`Backup failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
