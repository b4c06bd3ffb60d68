// `npm run bench:imports [-- COUNT]`: writes a HelloAsso-like payments export of COUNT lines
// (default 100 000; `;`, UTF-8 with a BOM, `dd/mm/yyyy hh:mm`, `85,00`), then uploads, dry-runs and
// imports it into a fresh SQLite database, printing each step's time and the process's peak
// resident memory (ADR 036: under a minute, memory bounded — the file is streamed, not held as
// objects). A measurement, not a test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrateToLatest, openDatabase } from '~db/index';
import { createImport, dryRun, getImport } from '~/domain/imports/imports.server';
import { runImport, startImport } from '~/domain/imports/run.server';
import { diskStorage } from '~/lib/storage.server';
import { HELLOASSO_HEADER, helloassoLine, utf8Bom } from '../tests/support/import-files';

const COUNT = Number(process.argv[2] ?? process.env.BENCH_LINES ?? 100_000);
if (!Number.isInteger(COUNT) || COUNT < 1) throw new Error(`not a number of lines: ${process.argv[2]}`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-imports-'));
const handle = openDatabase({ dataDir: dir });
const mib = (b: number) => `${Math.round(b / 1024 / 1024)} MiB`;
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
try {
  await migrateToLatest(handle.db);
  const storage = diskStorage(path.join(dir, 'media'));
  const lines = [HELLOASSO_HEADER];
  for (let n = 0; n < COUNT; n++) {
    const day = String((n % 28) + 1).padStart(2, '0');
    lines.push(helloassoLine({ order: `C${n}`, ref: `P${n}`, amount: `${(n % 200) + 5},00`, date: `${day}/0${(n % 9) + 1}/2024 1${n % 10}:00`, status: n % 50 === 0 ? 'Remboursé' : 'Autorisé', last: `Nom${n % 20_000}`, first: 'Prénom', email: `donateur${n % 20_000}@example.org`, campaign: n % 3 ? 'Dons libres' : 'Puits' }));
  }
  const file = utf8Bom(lines.join('\r\n'));
  lines.length = 0;
  const actor = { id: null, name: 'Banc' };
  const base = process.memoryUsage().rss;
  // Wall time depends on what else the machine runs; the process's own CPU time does not.
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const cpuBefore = cpu();
  let t = performance.now();
  const i = await createImport(handle.db, storage, actor, 'bench.csv', file);
  const upload = performance.now() - t;
  t = performance.now();
  const report = await dryRun(handle.db, storage, i.id);
  const dry = performance.now() - t;
  const cpuDry = cpu() - cpuBefore;
  t = performance.now();
  await startImport(handle.db, actor, i.id);
  await runImport(handle.db, storage, i.id);
  const run = performance.now() - t;
  const cpuUsed = cpu() - cpuBefore;
  const done = await getImport(handle.db, i.id);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`Import of ${COUNT} lines (${mib(file.length)} file) on SQLite`);
  console.log(`  upload (encoding, separator, header): ${upload.toFixed(0)} ms`);
  console.log(`  dry run: ${(dry / 1000).toFixed(1)} s (CPU ${(cpuDry / 1000).toFixed(1)} s) — ${report?.gifts} gifts, ${report?.newDonors} new donors, ${report?.rejectedCount} rejected`);
  console.log(`  import: ${(run / 1000).toFixed(1)} s (CPU ${((cpuUsed - cpuDry) / 1000).toFixed(1)} s) — ${done?.imported_count} gifts written, status ${done?.status}`);
  console.log(`  total: ${((upload + dry + run) / 1000).toFixed(1)} s (CPU ${(cpuUsed / 1000).toFixed(1)} s); peak RSS ${mib(peak)} (${mib(base)} before the import, file included)`);
} finally {
  clearInterval(sampler);
  await handle.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
