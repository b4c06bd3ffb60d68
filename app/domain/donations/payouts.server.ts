import { sql } from 'kysely';
import type { DB } from '~db/index';

/**
 * The payout reconciliation (ADR 033), read from what fees.server.ts stored: each payout with the
 * movements it carried and their gifts, the sum of their nets against the amount the bank shows;
 * and the fees per provider over a period. Read only.
 */

export interface PayoutMoveLine {
  ref: string;
  kind: string;
  donationId: string | null;
  donorName: string | null;
  /** ISO date-time of the movement. */
  occurredAt: string;
  grossMinor: number;
  feeMinor: number;
  netMinor: number;
}

export interface PayoutLine {
  provider: string;
  ref: string;
  status: string;
  amountMinor: number;
  currency: string;
  createdAt: string;
  arrivalAt: string | null;
  moves: PayoutMoveLine[];
  netSum: number;
  /** The payout's amount minus the sum of the nets it carried (0 when they match). */
  difference: number;
}

/** Payouts arriving (or, not yet dated, created) from `from` to `to` (YYYY-MM-DD, inclusive), newest first; at most `limit`. */
export async function payoutsBetween(db: DB, from: string, to: string, limit = 100): Promise<PayoutLine[]> {
  const day = sql<string>`substr(coalesce(arrival_at, created_at), 1, 10)`;
  const payouts = await db.selectFrom('provider_payouts').selectAll().where(day, '>=', from).where(day, '<=', to).orderBy(sql`coalesce(arrival_at, created_at)`, 'desc').orderBy('payout_ref').limit(limit).execute();
  if (payouts.length === 0) return [];
  const moves = await db
    .selectFrom('provider_balance_moves as m')
    .leftJoin('donations as d', 'd.id', 'm.donation_id')
    .select(['m.provider', 'm.payout_ref', 'm.move_ref', 'm.kind', 'm.donation_id', 'd.donor_name', 'm.occurred_at', 'm.gross_minor', 'm.fee_minor', 'm.net_minor'])
    .where('m.payout_ref', 'in', payouts.map((p) => p.payout_ref))
    .orderBy('m.occurred_at')
    .orderBy('m.move_ref')
    .execute();
  return payouts.map((p) => {
    const mine = moves
      .filter((m) => m.provider === p.provider && m.payout_ref === p.payout_ref)
      .map((m) => ({ ref: m.move_ref, kind: m.kind, donationId: m.donation_id, donorName: m.donor_name, occurredAt: m.occurred_at, grossMinor: m.gross_minor, feeMinor: m.fee_minor, netMinor: m.net_minor }));
    const netSum = mine.reduce((s, m) => s + m.netMinor, 0);
    return { provider: p.provider, ref: p.payout_ref, status: p.status, amountMinor: p.amount_minor, currency: p.currency, createdAt: p.created_at, arrivalAt: p.arrival_at, moves: mine, netSum, difference: p.amount_minor - netSum };
  });
}

export interface FeeTotal {
  provider: string;
  currency: string;
  count: number;
  grossMinor: number;
  feeMinor: number;
  netMinor: number;
}

/** Movements from `from` to `to` (YYYY-MM-DD, inclusive) per provider and currency: gross, fees, net. */
export async function feeTotals(db: DB, from: string, to: string): Promise<FeeTotal[]> {
  const day = sql<string>`substr(occurred_at, 1, 10)`;
  const rows = await db
    .selectFrom('provider_balance_moves')
    .select((eb) => ['provider', 'currency', eb.fn.countAll<string | number>().as('n'), eb.fn.sum<string | number>('gross_minor').as('gross'), eb.fn.sum<string | number>('fee_minor').as('fee'), eb.fn.sum<string | number>('net_minor').as('net')])
    .where(day, '>=', from)
    .where(day, '<=', to)
    .groupBy(['provider', 'currency'])
    .orderBy('provider')
    .orderBy('currency')
    .execute();
  // PostgreSQL answers count and sum as strings.
  return rows.map((r) => ({ provider: r.provider, currency: r.currency, count: Number(r.n), grossMinor: Number(r.gross), feeMinor: Number(r.fee), netMinor: Number(r.net) }));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

const dayShift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The screen's period from its query (`du`, `au`, YYYY-MM-DD): by default the last 90 days and the
 * next 14 (a payout on its way arrives in a few days); a wrong one says so.
 */
export function payoutPeriod(query: URLSearchParams, today: string): { from: string; to: string; error: string | null } {
  const fallback = { from: dayShift(today, -90), to: dayShift(today, 14) };
  const from = query.get('du')?.trim() || fallback.from;
  const to = query.get('au')?.trim() || fallback.to;
  if (!isDay(from) || !isDay(to)) return { ...fallback, error: 'Saisissez des dates valides (jj/mm/aaaa).' };
  if (from > to) return { ...fallback, error: 'La date de début doit précéder la date de fin.' };
  return { from, to, error: null };
}
