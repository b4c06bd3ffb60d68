// `npm run bench:people [-- DONORS]`: generates DONORS donors (default 100 000) and three gifts each
// (300 000) over three years in a fresh SQLite database — and in a fresh PostgreSQL database too when
// TEST_DATABASE_URL or DATABASE_URL is set — folds them into the donors register once (timed apart:
// it happens once, the first time the register is opened), then times the list's queries (by name,
// by this year's total, a search, a deep page, the monthly donors), the segments (ADR 040: the list
// narrowed to last year's lapsed donors and to the major donors, and the counts of the segments'
// screen) and prints the median of each.
// A measurement, not a test; the target is < 300 ms per list with 100 000 donors (ADR 038).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DbHandle } from '~db/index';
import type { DonationTable } from '~db/schema';
import { listPeople, type ListQuery } from '~/domain/people/register.server';
import { foldIn } from '~/domain/people/sync.server';
import { builtInSegment, BUILT_IN_SEGMENTS, DEFAULT_MAJOR_CENTS } from '~/domain/people/segments';
import { segmentCounts } from '~/domain/people/segments.server';
import { ledgerRow } from '../tests/support/ledger-rows';

const DONORS = Number(process.argv[2] ?? process.env.BENCH_DONORS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
if (!Number.isInteger(DONORS) || DONORS < 1) throw new Error(`not a number of donors: ${process.argv[2]}`);

async function seed(handle: DbHandle): Promise<void> {
  const now = Date.now();
  const span = 3 * 365 * 86_400_000;
  let s = 44;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  // 500 rows a statement: a row has some 35 columns, and SQLite takes at most 32 766 variables per statement.
  const batch: DonationTable[] = [];
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < DONORS * 3; i++) {
      const donor = i % DONORS;
      const at = new Date(now - Math.floor(rnd() * span)).toISOString();
      const monthly = donor % 7 === 0;
      const status = rnd() < 0.05 ? 'refunded' : 'succeeded';
      batch.push(ledgerRow(`g${i}`, at, { eur_cents: 500 + Math.floor(rnd() * 200) * 100, amount_minor: 1, frequency: monthly ? 'monthly' : 'once', status, donor_email: `donor${donor}@example.org`, donor_name: `Donateur ${donor}` }));
      if (batch.length === 500) await trx.insertInto('donations').values(batch.splice(0)).execute();
    }
    if (batch.length) await trx.insertInto('donations').values(batch.splice(0)).execute();
  });
}

async function measure(label: string, handle: DbHandle): Promise<void> {
  let t0 = performance.now();
  await seed(handle);
  console.log(`${label}: ${DONORS} donors, ${DONORS * 3} gifts generated in ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();
  await foldIn(handle.db);
  console.log(`${label}: first fold into the register ${Math.round(performance.now() - t0)} ms (once)`);
  if (label === 'PostgreSQL') {
    // What autovacuum does shortly after a bulk load: without statistics on the freshly filled tables the planner joins them whole.
    t0 = performance.now();
    await sql`analyze`.execute(handle.db);
    console.log(`${label}: analyze ${Math.round(performance.now() - t0)} ms`);
  }
  const base: ListQuery = { sort: 'name', desc: false, page: 1, donorsOnly: true, searchEmails: true };
  const cases: [string, ListQuery][] = [
    ['by name, page 1', base],
    ['by this year’s total, largest first', { ...base, sort: 'this_year', desc: true }],
    ['by last gift, newest first', { ...base, sort: 'last', desc: true }],
    ['search "donor4242"', { ...base, q: 'donor4242' }],
    ['page 1 000 by name', { ...base, page: 1000 }],
    ['monthly donors by total', { ...base, monthlyOnly: true, sort: 'total', desc: true }],
    ['segment "Perdus de l’an dernier" by name', { ...base, donorsOnly: false, segment: { rules: builtInSegment('perdus-an-dernier')!.rules, majorCents: DEFAULT_MAJOR_CENTS } }],
    ['segment "Perdus" by last gift', { ...base, donorsOnly: false, sort: 'last', desc: true, segment: { rules: builtInSegment('perdus')!.rules, majorCents: DEFAULT_MAJOR_CENTS } }],
    ['segment "Grands donateurs" by total', { ...base, donorsOnly: false, sort: 'total', desc: true, segment: { rules: builtInSegment('grands')!.rules, majorCents: DEFAULT_MAJOR_CENTS } }],
  ];
  for (const [name, query] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < RUNS; run++) {
      const t = performance.now();
      total = (await listPeople(handle.db, query)).total;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`${label}: list ${name}: ${total} records, median ${median.toFixed(1)} ms, slowest ${times[times.length - 1].toFixed(1)} ms (${RUNS} runs)${median < 300 ? '' : '  ← over the 300 ms target'}`);
  }
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    await segmentCounts(handle.db, BUILT_IN_SEGMENTS, { now: new Date(), majorCents: DEFAULT_MAJOR_CENTS });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: the segments' screen, counts of the ${BUILT_IN_SEGMENTS.length} ready-made segments: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms`);
}

// BENCH_SQLITE=0 measures PostgreSQL only.
if (process.env.BENCH_SQLITE !== '0') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-people-'));
  const sqlite = openDatabase({ dataDir });
  try {
    await migrateToLatest(sqlite.db);
    await measure('SQLite', sqlite);
  } finally {
    await sqlite.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (base) {
  const name = `thv_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-people-pg-')) });
  try {
    await migrateToLatest(handle.db);
    await measure('PostgreSQL', handle);
  } finally {
    await handle.close();
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  }
} else {
  console.log('PostgreSQL: skipped (set TEST_DATABASE_URL or DATABASE_URL to measure it too)');
}
