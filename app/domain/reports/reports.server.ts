import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '~db/index';
import { NON_MONEY_MEANS, type NonMoneyMeans, type PaymentMeans } from '~/domain/donations/status';
import { countsAsMoney, NOT_MONEY } from '~/domain/means/counted';
import { meansKey, type Means } from '~/domain/means/means';
import { monthsBetween, yearEarlier, type ReportRange } from './period';

/**
 * The donation reports (ADR 016): every figure is an SQL aggregation over the donations ledger, on
 * SQLite and PostgreSQL alike; no query loads the gifts themselves into JavaScript.
 *
 * What counts: a gift whose status is `succeeded` (a refunded gift leaves that status, so refunds
 * are deducted) and whose euro value the ledger knows (`eur_cents`: euros as charged, CFA francs
 * converted at the legal parity when the gift was recorded). It is dated by `succeeded_at` (UTC).
 * A donor is an email address, compared without case; gifts without one are counted as gifts but
 * belong to no donor. Gifts not in money (goods, waived expenses: ADR 030) are no money received:
 * every figure leaves them out, and `notMoney` counts them apart.
 */

export interface Bucket {
  gifts: number;
  cents: number;
}

export interface MonthRow {
  /** "2026-03" */
  month: string;
  current: Bucket;
  /** The same calendar month one year earlier, over the same days of the period. */
  previous: Bucket;
}

export interface DonationReport {
  /** The period as counted: [from, to), ISO instants (UTC). */
  from: string;
  to: string;
  months: MonthRow[];
  total: Bucket;
  /** The same period one year earlier. */
  previousTotal: Bucket;
  /** By means: a provider's name, or the means where its method names one (ADR 029: 'sepa'). */
  byMethod: { provider: PaymentMeans | Means; gifts: number; cents: number }[];
  byFrequency: { once: Bucket; monthly: Bucket };
  donors: { new: number; returning: number; anonymousGifts: number };
  /** Average and median gift in euro cents (null without a gift); rounded to the cent. */
  averageCents: number | null;
  medianCents: number | null;
  /** Monthly gifts paid in the 31 days before the end of the period (or before now). */
  monthly: { activeDonors: number; recurringCents: number; asOf: string };
  /**
   * Retention over the year ending with the period: donors of the twelve months before it
   * ([from, to) below), and how many of them gave again within it (whatever the period's length,
   * so the two years never overlap).
   */
  retention: { from: string; to: string; previousDonors: number; retained: number };
  /** Gifts in kind and waived expenses of the period, valued in euros, counted apart from money (ADR 030). */
  notMoney: Record<NonMoneyMeans, Bucket>;
}

const DAY_MS = 86_400_000;
/** A monthly gift paid within this many days keeps its donor "active". */
export const ACTIVE_MONTHLY_DAYS = 31;

/** The gifts a period holds, money or not. */
function given(from: string, to: string): Expression<SqlBool> {
  return sql<SqlBool>`status = 'succeeded' and eur_cents is not null and succeeded_at >= ${from} and succeeded_at < ${to}`;
}

/** The rows every figure counts (see above): money only. */
function counted(from: string, to: string): Expression<SqlBool> {
  return sql<SqlBool>`${countsAsMoney()} and succeeded_at >= ${from} and succeeded_at < ${to}`;
}

/** Euro cents received in [from, to) by what was paid (a gift, dues), counted as every figure here is: money only, refunds deducted. */
export async function moneyByPurpose(db: DB, from: string, to: string): Promise<{ gift: number; dues: number }> {
  const rows = await db
    .selectFrom('donations')
    .select(['purpose', sql<number>`coalesce(sum(eur_cents), 0)`.as('cents')])
    .where(counted(from, to))
    .groupBy('purpose')
    .execute();
  const of = (purpose: string) => Number(rows.find((r) => r.purpose === purpose)?.cents ?? 0);
  return { gift: of('gift'), dues: of('dues') };
}

/** Gifts in kind and waived expenses of the period, by means. */
async function notMoney(db: DB, from: string, to: string): Promise<Record<NonMoneyMeans, Bucket>> {
  const rows = await db
    .selectFrom('donations')
    .select(['provider', sql<number>`count(*)`.as('gifts'), sql<number>`coalesce(sum(eur_cents), 0)`.as('cents')])
    .where(given(from, to))
    .where(sql<SqlBool>`provider in (${NOT_MONEY})`)
    .groupBy('provider')
    .execute();
  return Object.fromEntries(NON_MONEY_MEANS.map((m) => [m, bucket(rows.find((r) => r.provider === m))])) as Record<NonMoneyMeans, Bucket>;
}

/** A donor's key, and whether a gift has one: written as the donor index's expression so that the index covers them. */
const donorKey = sql`lower(donor_email)`;
const hasDonor = sql<SqlBool>`lower(donor_email) <> ''`;

function bucket(row: { gifts: unknown; cents: unknown } | undefined): Bucket {
  return { gifts: Number(row?.gifts ?? 0), cents: Number(row?.cents ?? 0) };
}

interface CubeRow {
  month: string;
  provider: string;
  /** The provider's payment method (ADR 029): a SEPA debit is its own means. */
  method: string | null;
  frequency: string;
  gifts: number;
  cents: number;
  anonymous: number;
}

/**
 * One pass over the period: gifts, amount and gifts without a donor per month × method ×
 * frequency (a few hundred rows at most), from which the per-month, per-method, per-frequency and
 * total figures are summed.
 */
async function cube(db: DB, from: string, to: string): Promise<CubeRow[]> {
  const rows = await db
    .selectFrom('donations')
    .select([
      sql<string>`substr(succeeded_at, 1, 7)`.as('month'),
      'provider',
      'method',
      'frequency',
      sql<number>`count(*)`.as('gifts'),
      sql<number>`coalesce(sum(eur_cents), 0)`.as('cents'),
      sql<number>`coalesce(sum(case when ${hasDonor} then 0 else 1 end), 0)`.as('anonymous'),
    ])
    .where(counted(from, to))
    .groupBy([sql`substr(succeeded_at, 1, 7)`, 'provider', 'method', 'frequency'])
    .execute();
  return rows.map((r) => ({ month: r.month, provider: r.provider, method: r.method, frequency: r.frequency, gifts: Number(r.gifts), cents: Number(r.cents), anonymous: Number(r.anonymous) }));
}

/** Adds up the cube's rows by `key`. */
function sumBy(rows: CubeRow[], key: (r: CubeRow) => string): Map<string, Bucket> {
  const out = new Map<string, Bucket>();
  for (const r of rows) {
    const b = out.get(key(r)) ?? { gifts: 0, cents: 0 };
    out.set(key(r), { gifts: b.gifts + r.gifts, cents: b.cents + r.cents });
  }
  return out;
}

function sumAll(rows: CubeRow[]): Bucket {
  return sumBy(rows, () => '').get('') ?? { gifts: 0, cents: 0 };
}

async function totals(db: DB, from: string, to: string): Promise<Bucket> {
  const row = await db
    .selectFrom('donations')
    .select([sql<number>`count(*)`.as('gifts'), sql<number>`coalesce(sum(eur_cents), 0)`.as('cents')])
    .where(counted(from, to))
    .executeTakeFirst();
  return bucket(row);
}

/** The middle gift (or the mean of the two middle ones), read with ORDER BY … LIMIT/OFFSET on both databases. */
async function median(db: DB, from: string, to: string, n: number): Promise<number | null> {
  if (n === 0) return null;
  const rows = await db
    .selectFrom('donations')
    .select('eur_cents')
    .where(counted(from, to))
    .orderBy('eur_cents')
    .limit(n % 2 === 1 ? 1 : 2)
    .offset(Math.floor((n - 1) / 2))
    .execute();
  const values = rows.map((r) => Number(r.eur_cents));
  return Math.round(values.reduce((s, v) => s + v, 0) / values.length);
}

/** The first instant a gift was counted, for "Tout". */
async function firstGiftAt(db: DB): Promise<string | undefined> {
  const row = await db
    .selectFrom('donations')
    .select(sql<string | null>`min(succeeded_at)`.as('first'))
    .where('status', '=', 'succeeded')
    .where('eur_cents', 'is not', null)
    .executeTakeFirst();
  return row?.first ?? undefined;
}

function monthStartOf(iso: string): string {
  return `${iso.slice(0, 7)}-01T00:00:00.000Z`;
}

function nextMonthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** Every figure of the reports screen for a period (bounds missing: from the first gift, up to now). */
export async function donationReport(db: DB, range: ReportRange, now = new Date()): Promise<DonationReport> {
  const to = range.to ?? nextMonthStart(now);
  const from = range.from ?? monthStartOf((await firstGiftAt(db)) ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
  const prevFrom = yearEarlier(from);
  const prevTo = yearEarlier(to);

  const [cells, previousCells, donors, retention, monthly, apart] = await Promise.all([
    cube(db, from, to),
    cube(db, prevFrom, prevTo),
    // Each donor who gave in the period, new when their first gift ever falls inside it.
    db
      .selectFrom(
        db
          .selectFrom('donations')
          .select([sql<string>`min(succeeded_at)`.as('first_at'), sql<string>`max(succeeded_at)`.as('last_at')])
          .where(sql<SqlBool>`status = 'succeeded' and eur_cents is not null and succeeded_at < ${to} and provider not in (${NOT_MONEY})`)
          .where(hasDonor)
          .groupBy(donorKey)
          .as('d'),
      )
      .select([
        sql<number>`coalesce(sum(case when first_at >= ${from} then 1 else 0 end), 0)`.as('new_donors'),
        sql<number>`coalesce(sum(case when first_at < ${from} then 1 else 0 end), 0)`.as('returning_donors'),
      ])
      .where('last_at', '>=', from)
      .executeTakeFirst(),
    retentionOver(db, to),
    activeMonthly(db, to < now.toISOString() ? to : now.toISOString()),
    notMoney(db, from, to),
  ]);

  const current = sumBy(cells, (r) => r.month);
  const previous = sumBy(previousCells, (r) => r.month);
  const total = sumAll(cells);
  const frequencies = sumBy(cells, (r) => r.frequency);
  const none = { gifts: 0, cents: 0 };

  return {
    from,
    to,
    months: monthsBetween(from, to).map((month) => ({
      month,
      current: current.get(month) ?? none,
      previous: previous.get(yearEarlier(month)) ?? none,
    })),
    total,
    previousTotal: sumAll(previousCells),
    byMethod: [...sumBy(cells, meansKey)]
      .map(([provider, b]) => ({ provider: provider as PaymentMeans | Means, ...b }))
      .sort((a, b) => b.cents - a.cents || (a.provider < b.provider ? -1 : 1)),
    byFrequency: { once: frequencies.get('once') ?? none, monthly: frequencies.get('monthly') ?? none },
    donors: { new: Number(donors?.new_donors ?? 0), returning: Number(donors?.returning_donors ?? 0), anonymousGifts: cells.reduce((s, r) => s + r.anonymous, 0) },
    averageCents: total.gifts === 0 ? null : Math.round(total.cents / total.gifts),
    medianCents: await median(db, from, to, total.gifts),
    monthly,
    retention,
    notMoney: apart,
  };
}

/** Donors of [to − 2 years, to − 1 year), and how many of them gave again in [to − 1 year, to). */
async function retentionOver(db: DB, to: string): Promise<DonationReport['retention']> {
  const yearFrom = yearEarlier(to);
  const prevFrom = yearEarlier(yearFrom);
  const row = await db
    .selectFrom(
      db
        .selectFrom('donations')
        .select([
          sql<number>`sum(case when succeeded_at < ${yearFrom} then 1 else 0 end)`.as('prev_gifts'),
          sql<number>`sum(case when succeeded_at >= ${yearFrom} then 1 else 0 end)`.as('cur_gifts'),
        ])
        .where(counted(prevFrom, to))
        .where(hasDonor)
        .groupBy(donorKey)
        .as('r'),
    )
    .select([sql<number>`count(*)`.as('previous_donors'), sql<number>`coalesce(sum(case when cur_gifts > 0 then 1 else 0 end), 0)`.as('retained')])
    .where('prev_gifts', '>', 0)
    .executeTakeFirst();
  return { from: yearFrom, to, previousDonors: Number(row?.previous_donors ?? 0), retained: Number(row?.retained ?? 0) };
}

/**
 * Monthly donors still giving at `asOf`: one per subscription (or donor) with a monthly gift in the
 * 31 days before it; the recurring amount adds up each one's latest gift (a window function, on
 * both databases).
 */
async function activeMonthly(db: DB, asOf: string): Promise<DonationReport['monthly']> {
  const since = new Date(Date.parse(asOf) - ACTIVE_MONTHLY_DAYS * DAY_MS).toISOString();
  const latest = db
    .selectFrom('donations')
    .select([
      'eur_cents',
      sql<number>`row_number() over (partition by coalesce(secondary_ref, lower(donor_email), id) order by succeeded_at desc, id desc)`.as('rank'),
    ])
    .where(counted(since, asOf))
    .where('frequency', '=', 'monthly')
    .as('m');
  const row = await db
    .selectFrom(latest)
    .select([sql<number>`count(*)`.as('donors'), sql<number>`coalesce(sum(eur_cents), 0)`.as('cents')])
    .where('rank', '=', 1)
    .executeTakeFirst();
  return { activeDonors: Number(row?.donors ?? 0), recurringCents: Number(row?.cents ?? 0), asOf };
}

/** The dashboard's summary: this period's amount beside the same months a year earlier. */
export async function reportSummary(db: DB, range: ReportRange, now = new Date()): Promise<{ total: Bucket; previousTotal: Bucket; monthly: DonationReport['monthly'] }> {
  const to = range.to ?? nextMonthStart(now);
  const from = range.from ?? monthStartOf(now.toISOString());
  const [total, previousTotal, monthly] = await Promise.all([totals(db, from, to), totals(db, yearEarlier(from), yearEarlier(to)), activeMonthly(db, to < now.toISOString() ? to : now.toISOString())]);
  return { total, previousTotal, monthly };
}
