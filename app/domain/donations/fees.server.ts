import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { log } from '~/lib/log.server';
import type { DonationDeps } from './context.server';
import type { PaymentEvent } from './events.server';
import type { Donation } from './ledger.server';
import type { BalanceMove, PayoutNews } from './providers/balance';
import { allProviders, providerOfRow } from './providers/registry.server';

/**
 * Fees and payouts from the providers' own ledgers (ADR 033), stored beside the gifts: this module
 * writes provider_balance_moves and provider_payouts only, never `donations` (a gift's amount and
 * receipt stay what the donor gave). Replay-safe: a movement is keyed on (provider, move_ref), a
 * payout on (provider, payout_ref); fetching again changes nothing unless the provider's word did
 * (a payout's status, the payout that carried a movement).
 */

/** Stores one movement; answers whether the table changed. A movement first seen in a payout (no gift) gets its gift when the gift's fetch finds it. */
export async function storeMove(db: DB, provider: string, donationId: string | null, m: BalanceMove, payoutRef: string | null = null, now = new Date()): Promise<boolean> {
  const inserted = await db
    .insertInto('provider_balance_moves')
    .values({
      id: randomUUID(),
      provider,
      move_ref: m.ref,
      donation_id: donationId,
      kind: donationId ? m.kind : 'other',
      gross_minor: m.grossMinor,
      fee_minor: m.feeMinor,
      net_minor: m.netMinor,
      currency: m.currency,
      occurred_at: m.occurredAt,
      available_at: m.availableAt,
      payout_ref: payoutRef,
      fetched_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['provider', 'move_ref']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  const row = await db.selectFrom('provider_balance_moves').select(['donation_id', 'payout_ref']).where('provider', '=', provider).where('move_ref', '=', m.ref).executeTakeFirstOrThrow();
  const patch: { donation_id?: string; kind?: string; payout_ref?: string } = {};
  if (donationId && !row.donation_id) Object.assign(patch, { donation_id: donationId, kind: m.kind });
  if (payoutRef && row.payout_ref !== payoutRef) patch.payout_ref = payoutRef;
  if (Object.keys(patch).length === 0) return false;
  await db.updateTable('provider_balance_moves').set({ ...patch, fetched_at: now.toISOString() }).where('provider', '=', provider).where('move_ref', '=', m.ref).execute();
  return true;
}

/** Stores a payout and marks the movements it carried; a payout seen again updates its status and arrival only. */
export async function storePayout(db: DB, provider: string, p: PayoutNews, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom('provider_payouts').select(['status', 'arrival_at', 'amount_minor']).where('provider', '=', provider).where('payout_ref', '=', p.ref).executeTakeFirst();
    if (!known) {
      await trx.insertInto('provider_payouts').values({ id: randomUUID(), provider, payout_ref: p.ref, amount_minor: p.amountMinor, currency: p.currency, status: p.status, created_at: p.createdAt, arrival_at: p.arrivalAt, fetched_at: now.toISOString() }).onConflict((oc) => oc.columns(['provider', 'payout_ref']).doNothing()).execute();
    } else if (known.status !== p.status || known.arrival_at !== p.arrivalAt || known.amount_minor !== p.amountMinor) {
      await trx.updateTable('provider_payouts').set({ status: p.status, arrival_at: p.arrivalAt, amount_minor: p.amountMinor, fetched_at: now.toISOString() }).where('provider', '=', provider).where('payout_ref', '=', p.ref).execute();
    }
    for (const m of p.moves) await storeMove(trx, provider, null, m, p.ref, now);
  });
}

/** Asks the gift's provider for its movements and stores them; answers how many rows changed (0 for a provider with no ledger to read). */
export async function fetchGiftMoves(deps: DonationDeps, donation: Donation, now = new Date()): Promise<number> {
  const balance = providerOfRow(donation.provider)?.balance;
  if (!balance) return 0;
  const moves = await balance.moves(deps, donation);
  let changed = 0;
  for (const m of moves) if (await storeMove(deps.db, donation.provider, donation.id, m, null, now)) changed += 1;
  return changed;
}

/** Asks every provider with payouts for those created since `since`, and stores them. */
export async function fetchPayouts(deps: DonationDeps, since: Date, now = new Date()): Promise<number> {
  let count = 0;
  for (const p of allProviders()) {
    if (!p.balance?.payouts) continue;
    let payouts: PayoutNews[];
    try {
      payouts = await p.balance.payouts(deps, since);
    } catch (e) {
      // A provider not configured, or unreachable: the next run asks again.
      log.warn('payouts not fetched', { provider: p.name, error: e instanceof Error ? e.message : String(e) });
      continue;
    }
    for (const payout of payouts) await storePayout(deps.db, p.name, payout, now);
    count += payouts.length;
  }
  return count;
}

// ——— after a payment, in the background ———

const inFlight = new Set<Promise<void>>();

/** The fetches started after payments and not finished yet (tests wait for them). */
export const feesSettled = async (): Promise<void> => {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
};

/**
 * The payment events' subscriber (registered by the composition root): once a payment succeeded or
 * was refunded, its movements are fetched in the background. It answers at once, so the webhook's
 * answer is neither delayed nor failed by the provider's ledger; a failed fetch is logged, and the
 * catch-up job (fees-job.server.ts) tries again.
 */
export async function fetchFeesAfter(deps: DonationDeps, e: PaymentEvent): Promise<void> {
  if (e.type !== 'payment.succeeded' && e.type !== 'payment.refunded') return;
  if (!providerOfRow(e.payment.provider)?.balance) return;
  const run = fetchGiftMoves(deps, e.payment)
    .then(() => undefined)
    .catch((err) => log.warn('provider fees not fetched', { donationId: e.payment.id, provider: e.payment.provider, error: err instanceof Error ? err.message : String(err) }));
  inFlight.add(run);
  void run.finally(() => inFlight.delete(run));
}
