// `npm test`: every test. Builds the app, runs the unit and integration tests (Vitest; on
// PostgreSQL too when TEST_DATABASE_URL is set), then the end-to-end tests in Chromium
// (Playwright), and prints one closing line: "N passed, N failed, N skipped". PostgreSQL variants
// that cannot run are counted as skipped; on CI (CI=true) a missing PostgreSQL fails the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const out = path.join(root, '.test-output');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;
const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
const durations = [];
/** Runs one part and keeps its duration for the summary printed before the closing line. */
const timed = (name, cmd, args) => {
  const started = Date.now();
  const status = run(cmd, args);
  durations.push(`${name} ${minutes(Date.now() - started)}`);
  return status;
};

const onCi = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI.toLowerCase());
if (onCi && !process.env.TEST_DATABASE_URL) {
  console.log('CI=true but TEST_DATABASE_URL is not set: CI machines have PostgreSQL on 127.0.0.1:5432 (.ci/run sets TEST_DATABASE_URL when it answers); start it, or set TEST_DATABASE_URL. Refusing to run the PostgreSQL variants as skipped on CI.');
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

if (timed('build', process.execPath, [path.join(root, 'scripts', 'build.js')]) !== 0) {
  console.log('build failed');
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

console.log(process.env.TEST_DATABASE_URL ? 'Data-layer tests: SQLite and PostgreSQL' : 'Data-layer tests: SQLite only (set TEST_DATABASE_URL for PostgreSQL)');
const unit = timed('unit and integration (Vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(out, 'unit.json')}`]);
const e2e = timed('end to end (Playwright)', bin('playwright'), ['test']);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const u = JSON.parse(fs.readFileSync(path.join(out, 'unit.json'), 'utf8'));
  passed += u.numPassedTests;
  failed += u.numFailedTests;
  skipped += u.numPendingTests + (u.numTodoTests ?? 0);
} catch {
  failed += 1;
}
try {
  const e = JSON.parse(fs.readFileSync(path.join(out, 'e2e.json'), 'utf8'));
  passed += e.stats.expected;
  failed += e.stats.unexpected + e.stats.flaky;
  skipped += e.stats.skipped;
} catch {
  failed += 1;
}
if ((unit !== 0 || e2e !== 0) && failed === 0) failed = 1;
console.log(`\nDurations: ${durations.join(', ')}.`);
const ciStarted = Number(process.env.CI_STARTED_AT);
if (ciStarted > 0) console.log(`Whole .ci/run: ${minutes(Date.now() - ciStarted * 1000)} (budget: 40 min).`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(unit !== 0 || e2e !== 0 ? 1 : 0);
