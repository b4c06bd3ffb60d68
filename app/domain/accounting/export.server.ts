import { sql } from 'kysely';
import type { DB } from '~db/index';
import { PROVIDERS, type PaymentMeans, type ProviderName } from '~/domain/means/providers/names';
import { referenceOf } from '~/domain/donations/status';
import { csvDocument } from '~/lib/csv';
import { fiscalYear, fiscalYearName } from '~/domain/fiscal-year/fiscal-year';
import type { AccountingSettings } from './chart';
import { buildEntries, totalsOf, type GiftFact, type MoveFact, type PayoutFact, type YearEntries } from './entries';
import { fecFileName, fecText, JOURNAL_CSV_HEADER, journalCsvRows, latin9 } from './fec';
import { getAccountingSettings, sirenFor } from './settings.server';

/**
 * The accounting export of a fiscal year (ADR 034): reads the ledger's facts (payments, their
 * refunds and lost disputes, cheque deposits, the providers' movements and payouts, which the
 * fees' reader stores: ADR 033) and hands them to the pure builder (entries.ts) and writer (fec.ts).
 * Reads only; the facts of the days around the year are read too (a Paris day starts in UTC's
 * previous day), and the builder keeps what falls within the year.
 */

const DAY_MS = 86_400_000;
const isProvider = (p: string): p is ProviderName => (PROVIDERS as readonly string[]).includes(p);

async function facts(db: DB, first: string, last: string): Promise<{ gifts: GiftFact[]; moves: MoveFact[]; payouts: PayoutFact[] }> {
  const lo = new Date(Date.parse(first) - DAY_MS).toISOString();
  const hi = new Date(Date.parse(last) + 2 * DAY_MS).toISOString();
  const inBatches = () => db.selectFrom('offline_gifts').innerJoin('gift_batches', 'gift_batches.id', 'offline_gifts.batch_id').where('gift_batches.deposited_on', '>=', first).where('gift_batches.deposited_on', '<=', last);
  const deposited = inBatches().select('offline_gifts.payment_id');
  const moves = await db.selectFrom('provider_balance_moves').selectAll().where('occurred_at', '>=', lo).where('occurred_at', '<', hi).execute();
  const moved = [...new Set(moves.map((m) => m.donation_id).filter((id): id is string => id !== null))];
  const rows = await db
    .selectFrom('donations')
    .select(['id', 'provider', 'method', 'purpose', 'provider_ref', 'secondary_ref', 'amount_minor', 'currency', 'eur_cents', 'succeeded_at', 'status', 'updated_at'])
    .where('status', 'in', ['succeeded', 'refunded'])
    .where('succeeded_at', 'is not', null)
    .where((eb) => {
      const either = [eb.and([eb('succeeded_at', '>=', lo), eb('succeeded_at', '<', hi)]), eb('status', '=', 'refunded'), eb('id', 'in', deposited)];
      if (moved.length > 0) either.push(eb('id', 'in', moved));
      return eb.or(either);
    })
    .execute();
  const refunded = rows.filter((r) => r.status === 'refunded').map((r) => r.id);
  const [lost, refunds, deposits] = await Promise.all([
    refunded.length ? db.selectFrom('payment_disputes').select(['donation_id', sql<string>`min("at")`.as('at')]).where('outcome', '=', 'lost').where('donation_id', 'in', refunded).groupBy('donation_id').execute() : [],
    refunded.length ? db.selectFrom('provider_balance_moves').select(['donation_id', sql<string>`min(occurred_at)`.as('at')]).where('kind', '=', 'refund').where('donation_id', 'in', refunded).groupBy('donation_id').execute() : [],
    // The cheques of the batches deposited within the year (their deposit is the year's entry, whenever they were typed).
    inBatches().select(['offline_gifts.payment_id', 'gift_batches.number', 'gift_batches.deposited_on']).execute(),
  ]);
  const lostAt = new Map(lost.map((d) => [d.donation_id, d.at]));
  const refundAt = new Map(refunds.map((r) => [r.donation_id!, r.at]));
  const depositOf = new Map(deposits.map((d) => [d.payment_id, { batch: Number(d.number), on: d.deposited_on! }]));
  const gifts: GiftFact[] = rows.map((r) => ({
    id: r.id,
    means: r.provider as PaymentMeans,
    method: r.method,
    purpose: r.purpose,
    ref: referenceOf(r) || r.id,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    eurCents: r.eur_cents === null ? null : Number(r.eur_cents),
    succeededAt: r.succeeded_at!,
    reversal: r.status !== 'refunded' ? null : lostAt.has(r.id) ? { kind: 'dispute', at: lostAt.get(r.id)! } : { kind: 'refund', at: refundAt.get(r.id) ?? r.updated_at },
    deposit: depositOf.get(r.id) ?? null,
  }));
  const payouts = await db
    .selectFrom('provider_payouts')
    .selectAll()
    .where((eb) => eb.or([eb.and([eb('created_at', '>=', lo), eb('created_at', '<', hi)]), eb.and([eb('arrival_at', '>=', lo), eb('arrival_at', '<', hi)])]))
    .execute();
  return {
    gifts,
    moves: moves.filter((m) => isProvider(m.provider)).map((m) => ({ provider: m.provider as ProviderName, ref: m.move_ref, donationId: m.donation_id, kind: m.kind, grossMinor: Number(m.gross_minor), feeMinor: Number(m.fee_minor), currency: m.currency, occurredAt: m.occurred_at })),
    payouts: payouts.filter((p) => isProvider(p.provider)).map((p) => ({ provider: p.provider as ProviderName, ref: p.payout_ref, amountMinor: Number(p.amount_minor), currency: p.currency, status: p.status, createdAt: p.created_at, arrivalAt: p.arrival_at })),
  };
}

export interface AccountingYear extends YearEntries {
  settings: AccountingSettings;
  year: number;
  name: string;
  first: string;
  last: string;
  /** The SIREN the FEC is named after; null when none is set (the file cannot be named). */
  siren: string | null;
  totals: ReturnType<typeof totalsOf>;
}

/** A fiscal year's entries, totals and settings. */
export async function accountingYear(db: DB, year: number): Promise<AccountingYear> {
  const settings = await getAccountingSettings(db);
  const { first, last } = fiscalYear(settings.fiscalStartMonth, year);
  const built = buildEntries(settings, await facts(db, first, last), first, last);
  return { ...built, settings, year, name: fiscalYearName(settings.fiscalStartMonth, year), first, last, siren: await sirenFor(db, settings), totals: totalsOf(built.entries) };
}

/** The FEC of a year: its name and its bytes (ISO 8859-15); null without a SIREN to name it. */
export function fecFile(y: AccountingYear): { name: string; bytes: Uint8Array<ArrayBuffer> } | null {
  return y.siren ? { name: fecFileName(y.siren, y.last), bytes: latin9(fecText(y.entries, y.settings.journals)) } : null;
}

/** The journal as a CSV for a spreadsheet. */
export function journalCsv(y: AccountingYear): { name: string; text: string } {
  return { name: `journal-${y.name}.csv`, text: csvDocument(JOURNAL_CSV_HEADER, journalCsvRows(y.entries, y.settings.journals)) };
}
