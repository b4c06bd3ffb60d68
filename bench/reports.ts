// `npm run bench:reports [-- COUNT]`: generates COUNT gifts (default 100 000) over three years in
// a fresh SQLite database, then times the reports screen's queries (the last 12 months, this year,
// everything) a few times each and prints the median. A measurement, not a test: run it on a quiet
// machine; the target is ≤ 300 ms per report with 100 000 gifts (ADR 016). BENCH_RUNS sets the
// repetitions; BENCH_KEEP=1 keeps the database (its path is printed) to look at the query plans.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrateToLatest, openDatabase } from '~db/index';
import type { DonationTable } from '~db/schema';
import { eurCentsToCfa } from '~/domain/donations/money';
import { readReportQuery, reportRange } from '~/domain/reports/period';
import { donationReport } from '~/domain/reports/reports.server';
import { ledgerRow } from '../tests/support/ledger-rows';

const COUNT = Number(process.argv[2] ?? process.env.BENCH_GIFTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
if (!Number.isInteger(COUNT) || COUNT < 1) throw new Error(`not a number of gifts: ${process.argv[2]}`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-reports-'));
const handle = openDatabase({ dataDir });
try {
  await migrateToLatest(handle.db);
  const now = Date.now();
  const span = 3 * 365 * 86_400_000;
  const providers = ['stripe', 'paypal', 'coingate', 'flutterwave'];
  const statuses = ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'refunded', 'failed', 'pending'];
  let seed = 16;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const started = performance.now();
  const batch: DonationTable[] = [];
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < COUNT; i++) {
      const at = new Date(now - Math.floor(rnd() * span)).toISOString();
      const provider = providers[Math.floor(rnd() * providers.length)];
      const eur = 500 + Math.floor(rnd() * 200) * 100;
      const xof = provider === 'flutterwave';
      const monthly = provider === 'stripe' && rnd() < 0.4;
      const status = statuses[Math.floor(rnd() * statuses.length)];
      batch.push(
        ledgerRow(`b${i}`, at, {
          provider,
          amount_minor: xof ? eurCentsToCfa(eur) : eur,
          currency: xof ? 'XOF' : 'EUR',
          eur_cents: eur,
          secondary_ref: monthly ? `sub_${i % 5000}` : null,
          frequency: monthly ? 'monthly' : 'once',
          status,
          donor_email: rnd() < 0.1 ? null : `donor${Math.floor(rnd() * (COUNT / 4))}@example.org`,
        }),
      );
      // SQLite allows 32 766 bound values per statement: 19 columns × 1 000 rows stays below.
      if (batch.length === 1000) await trx.insertInto('donations').values(batch.splice(0)).execute();
    }
    if (batch.length) await trx.insertInto('donations').values(batch.splice(0)).execute();
  });
  console.log(`${COUNT} gifts generated in ${Math.round(performance.now() - started)} ms (SQLite, ${dataDir})`);

  for (const query of ['', 'period=year', 'period=all']) {
    const range = reportRange(readReportQuery(new URLSearchParams(query)));
    const times: number[] = [];
    let gifts = 0;
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      const report = await donationReport(handle.db, range);
      times.push(performance.now() - t0);
      gifts = report.total.gifts;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`report ${query || 'period=12-months'}: ${gifts} gifts counted, median ${median.toFixed(1)} ms, slowest ${times[times.length - 1].toFixed(1)} ms (${RUNS} runs)`);
  }
} finally {
  await handle.close();
  if (!process.env.BENCH_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
}
