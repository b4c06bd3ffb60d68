import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationTable } from '~db/schema';
import { eurCentsToCfa } from '~/domain/donations/money';
import { readReportQuery, reportRange } from '~/domain/reports/period';
import { donationReport, reportSummary } from '~/domain/reports/reports.server';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';

/**
 * The reports over a generated ledger — three years, four methods, EUR and XOF, refunds, failed and
 * pending attempts, monthly subscriptions, returning and anonymous donors — each figure recomputed
 * here the plain way, gift by gift, and compared with what the SQL aggregation answers.
 */

const NOW = new Date('2026-11-20T12:00:00.000Z');

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateLedger(): DonationTable[] {
  const rnd = random(19);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const emails = Array.from({ length: 30 }, (_, i) => `donor${i}@example.org`);
  const rows: DonationTable[] = [];
  const start = Date.parse('2023-12-01T00:00:00.000Z');
  const end = Date.parse('2026-11-20T11:00:00.000Z');
  const row = (at: number, fields: Partial<DonationTable>): DonationTable => ledgerRow(`d${String(rows.length).padStart(5, '0')}`, new Date(at).toISOString(), fields);
  // One-off gifts: 700 over three years.
  for (let i = 0; i < 700; i++) {
    const at = start + Math.floor(rnd() * (end - start));
    const provider = pick(['stripe', 'paypal', 'coingate', 'flutterwave'] as const);
    const eur = pick([500, 1000, 2000, 2500, 5000, 10000, 1234, 777]);
    const xof = provider === 'flutterwave' && rnd() < 0.7;
    const status = pick(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'refunded', 'failed', 'pending', 'cancelled'] as const);
    const email = rnd() < 0.15 ? null : pick(emails);
    rows.push(
      row(at, {
        provider,
        status,
        amount_minor: xof ? eurCentsToCfa(eur) : eur,
        currency: xof ? 'XOF' : 'EUR',
        eur_cents: eur,
        // Some addresses in capitals: the same donor.
        donor_email: email && rnd() < 0.2 ? email.toUpperCase() : email,
      }),
    );
  }
  // Donors who gave once and never again.
  for (let i = 0; i < 40; i++) {
    const at = start + Math.floor(((i + 0.5) / 40) * (end - start));
    rows.push(row(at, { provider: pick(['stripe', 'paypal'] as const), amount_minor: 3000, eur_cents: 3000, donor_email: `once${i}@example.org` }));
  }
  // Gifts in a currency whose euro value the ledger does not know: never counted.
  rows.push(row(Date.parse('2026-06-10T10:00:00.000Z'), { provider: 'flutterwave', currency: 'GHS', amount_minor: 10000, eur_cents: null, donor_email: 'ghs@example.org' }));
  rows.push(row(Date.parse('2025-06-10T10:00:00.000Z'), { provider: 'flutterwave', currency: 'GHS', amount_minor: 10000, eur_cents: null, donor_email: 'ghs@example.org' }));
  // Monthly subscriptions (Stripe), each paying on the same day of the month from its start to its end.
  for (let s = 0; s < 14; s++) {
    const first = start + Math.floor(rnd() * (end - start) * 0.8);
    const last = rnd() < 0.5 ? end : first + Math.floor(rnd() * (end - first));
    const eur = pick([1000, 1500, 2000, 3000]);
    const email = pick(emails);
    const sub = `sub_${s}`;
    for (let at = first, k = 0; at <= last; at += 30.5 * 86_400_000, k++) {
      // The amount changes once for some subscriptions: the recurring amount is the latest one.
      const amount = k > 6 && s % 3 === 0 ? eur + 500 : eur;
      const status = rnd() < 0.05 ? 'refunded' : 'succeeded';
      rows.push(row(Math.floor(at), { frequency: 'monthly', secondary_ref: sub, amount_minor: amount, eur_cents: amount, status, donor_email: email }));
    }
  }
  // A donor who raised their monthly gift within the last 31 days: the recurring amount is the new one.
  rows.push(row(NOW.getTime() - 25 * 86_400_000, { frequency: 'monthly', secondary_ref: 'sub_raised', amount_minor: 1000, eur_cents: 1000, donor_email: 'raised@example.org' }));
  rows.push(row(NOW.getTime() - 3 * 86_400_000, { frequency: 'monthly', secondary_ref: 'sub_raised', amount_minor: 2500, eur_cents: 2500, donor_email: 'raised@example.org' }));
  // Gifts in kind and waived expenses (ADR 030): valued in euros, never money — counted apart, by a donor's address or not.
  const apart = random(30);
  for (let i = 0; i < 60; i++) {
    const at = start + Math.floor(apart() * (end - start));
    const eur = [15000, 76320, 8450, 120000][i % 4];
    rows.push(row(at, { provider: i % 3 === 0 ? 'waived_expenses' : 'in_kind', amount_minor: eur, eur_cents: eur, status: i % 7 === 0 ? 'cancelled' : 'succeeded', donor_email: i % 2 ? `kind${i % 5}@example.org` : emails[i % 30] }));
  }
  return rows;
}

const ledger = generateLedger();

// ——— the plain recomputation ———

const givenIn = (from: string, to: string) =>
  ledger.filter((d) => d.status === 'succeeded' && d.eur_cents !== null && d.succeeded_at !== null && d.succeeded_at >= from && d.succeeded_at < to);
const NOT_MONEY = ['in_kind', 'waived_expenses'];
/** Money only: goods and waived expenses are counted apart. */
const countedIn = (from: string, to: string) => givenIn(from, to).filter((d) => !NOT_MONEY.includes(d.provider));
const sumOf = (rows: DonationTable[]) => rows.reduce((s, d) => s + (d.eur_cents as number), 0);
const bucketOf = (rows: DonationTable[]) => ({ gifts: rows.length, cents: sumOf(rows) });
const shiftYear = (iso: string) => `${Number(iso.slice(0, 4)) - 1}${iso.slice(4)}`;
const donorOf = (d: DonationTable) => (d.donor_email ? d.donor_email.toLowerCase() : null);

function plainMonths(from: string, to: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from.slice(0, 7)}-01T00:00:00.000Z`);
  while (d.toISOString() < to) {
    out.push(d.toISOString().slice(0, 7));
    d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return out;
}

function plainReport(from: string, to: string) {
  const gifts = countedIn(from, to);
  const prevFrom = shiftYear(from);
  const prevTo = shiftYear(to);
  const previousGifts = countedIn(prevFrom, prevTo);
  const months = plainMonths(from, to).map((month) => ({
    month,
    current: bucketOf(gifts.filter((d) => d.succeeded_at!.startsWith(month))),
    previous: bucketOf(previousGifts.filter((d) => d.succeeded_at!.startsWith(shiftYear(month)))),
  }));
  const providers = [...new Set(gifts.map((d) => d.provider))];
  const byMethod = providers
    .map((provider) => ({ provider, ...bucketOf(gifts.filter((d) => d.provider === provider)) }))
    .sort((a, b) => b.cents - a.cents || a.provider.localeCompare(b.provider));
  // Donors: first gift ever (up to the end of the period).
  const firstGift = new Map<string, string>();
  for (const d of countedIn('0000', to)) {
    const who = donorOf(d);
    if (who && (!firstGift.has(who) || d.succeeded_at! < firstGift.get(who)!)) firstGift.set(who, d.succeeded_at!);
  }
  const donorsNow = new Set(gifts.map(donorOf).filter((x): x is string => x !== null));
  // Retention: donors of the twelve months before the period's last twelve, who gave again within them.
  const yearFrom = shiftYear(to);
  const donorsOf = (rows: DonationTable[]) => new Set(rows.map(donorOf).filter((x): x is string => x !== null));
  const donorsBefore = donorsOf(countedIn(shiftYear(yearFrom), yearFrom));
  const donorsAfter = donorsOf(countedIn(yearFrom, to));
  const values = gifts.map((d) => d.eur_cents as number).sort((a, b) => a - b);
  const n = values.length;
  const median = n === 0 ? null : n % 2 === 1 ? values[(n - 1) / 2] : Math.round((values[n / 2 - 1] + values[n / 2]) / 2);
  // Active monthly donors: the latest monthly gift per subscription in the 31 days before the end.
  const asOf = to < NOW.toISOString() ? to : NOW.toISOString();
  const since = new Date(Date.parse(asOf) - 31 * 86_400_000).toISOString();
  const latest = new Map<string, DonationTable>();
  for (const d of countedIn(since, asOf).filter((g) => g.frequency === 'monthly')) {
    const key = d.secondary_ref ?? donorOf(d) ?? d.id;
    const seen = latest.get(key);
    if (!seen || d.succeeded_at! > seen.succeeded_at! || (d.succeeded_at === seen.succeeded_at && d.id > seen.id)) latest.set(key, d);
  }
  return {
    from,
    to,
    months,
    total: bucketOf(gifts),
    previousTotal: bucketOf(previousGifts),
    byMethod,
    byFrequency: { once: bucketOf(gifts.filter((d) => d.frequency === 'once')), monthly: bucketOf(gifts.filter((d) => d.frequency === 'monthly')) },
    donors: {
      new: [...donorsNow].filter((e) => firstGift.get(e)! >= from).length,
      returning: [...donorsNow].filter((e) => firstGift.get(e)! < from).length,
      anonymousGifts: gifts.filter((d) => donorOf(d) === null).length,
    },
    averageCents: n === 0 ? null : Math.round(sumOf(gifts) / n),
    medianCents: median,
    monthly: { activeDonors: latest.size, recurringCents: sumOf([...latest.values()]), asOf },
    retention: { from: yearFrom, to, previousDonors: donorsBefore.size, retained: [...donorsBefore].filter((e) => donorsAfter.has(e)).length },
    notMoney: { in_kind: bucketOf(givenIn(from, to).filter((d) => d.provider === 'in_kind')), waived_expenses: bucketOf(givenIn(from, to).filter((d) => d.provider === 'waived_expenses')) },
  };
}

describeEachDialect('donation reports on %s', (dialect) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    for (let i = 0; i < ledger.length; i += 200) await t.db.insertInto('donations').values(ledger.slice(i, i + 200)).execute();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it('generated a ledger worth reporting on', () => {
    const counted = countedIn('0000', '9999');
    expect(new Set(counted.map((d) => d.provider)).size).toBe(4);
    expect(givenIn('0000', '9999').filter((d) => NOT_MONEY.includes(d.provider)).length).toBeGreaterThan(40);
    expect(counted.some((d) => d.currency === 'XOF')).toBe(true);
    expect(ledger.filter((d) => d.status === 'refunded').length).toBeGreaterThan(20);
    expect(counted.filter((d) => d.frequency === 'monthly').length).toBeGreaterThan(100);
    expect(new Set(counted.map((d) => d.succeeded_at!.slice(0, 4)))).toEqual(new Set(['2023', '2024', '2025', '2026']));
  });

  it.each([
    ['the last 12 months (default)', ''],
    ['this year', 'period=year'],
    ['last month', 'period=last-month'],
    ['this month', 'period=month'],
    ['dates cutting months in two', 'period=custom&from=2025-03-15&to=2026-02-10'],
    ['a period over a year long', 'period=custom&from=2024-06-01&to=2026-08-31'],
  ])('equals the plain recomputation for %s', async (_label, query) => {
    const range = reportRange(readReportQuery(new URLSearchParams(query)), NOW);
    const report = await donationReport(t.db, range, NOW);
    // A period without an end runs to the end of the current month.
    expect([report.from, report.to]).toEqual([range.from, range.to ?? '2026-12-01T00:00:00.000Z']);
    expect(report).toEqual(plainReport(report.from, report.to));
    expect(report.total.gifts).toBeGreaterThan(0);
    expect(report.retention.retained).toBeGreaterThan(0);
    expect(report.retention.retained).toBeLessThan(report.retention.previousDonors);
  });

  it('counts everything since the first gift for "Tout"', async () => {
    const range = reportRange(readReportQuery(new URLSearchParams('period=all')), NOW);
    const report = await donationReport(t.db, range, NOW);
    const first = countedIn('0000', '9999')
      .map((d) => d.succeeded_at!)
      .sort()[0];
    expect(report.from).toBe(`${first.slice(0, 7)}-01T00:00:00.000Z`);
    expect(report.to).toBe('2026-12-01T00:00:00.000Z');
    expect(report).toEqual(plainReport(report.from, report.to));
  });

  it('answers zeros, not errors, for a period without gifts', async () => {
    const report = await donationReport(t.db, { from: '2020-01-01T00:00:00.000Z', to: '2020-03-01T00:00:00.000Z' }, NOW);
    expect(report.months).toEqual([
      { month: '2020-01', current: { gifts: 0, cents: 0 }, previous: { gifts: 0, cents: 0 } },
      { month: '2020-02', current: { gifts: 0, cents: 0 }, previous: { gifts: 0, cents: 0 } },
    ]);
    expect(report.averageCents).toBeNull();
    expect(report.medianCents).toBeNull();
    expect(report.byMethod).toEqual([]);
    expect(report.monthly).toEqual({ activeDonors: 0, recurringCents: 0, asOf: '2020-03-01T00:00:00.000Z' });
  });

  it("gives the dashboard this month's total beside the same month a year earlier", async () => {
    const summary = await reportSummary(t.db, reportRange(readReportQuery(new URLSearchParams('period=month')), NOW), NOW);
    const full = plainReport('2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z');
    expect(summary).toEqual({ total: full.total, previousTotal: full.previousTotal, monthly: full.monthly });
  });
});
