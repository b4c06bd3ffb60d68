import type { DB } from '~db/index';
import { log } from '~/lib/log.server';
import type { DonationDeps } from './context.server';
import { onceAcrossInstances } from './deps.server';
import { fetchGiftMoves, fetchPayouts } from './fees.server';
import type { Donation } from './ledger.server';
import { allProviders } from './providers/registry.server';

/**
 * The fees' catch-up (ADR 033): gifts whose movements were never fetched (the provider was down
 * after the payment, the process stopped), refunds and disputes whose movement is missing, then the
 * payouts of the last weeks. Bounded per run; run hourly by one instance.
 */

/** Gifts asked about per run. */
export const CATCH_UP_LIMIT = 50;
/** Payouts created this long before the run are asked again (their status changes until they arrive). */
export const PAYOUT_WINDOW_DAYS = 35;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Gifts of providers with a ledger whose movements are missing: no 'payment' move, or refunded/disputed without a move of it. */
export async function giftsMissingMoves(db: DB, limit = CATCH_UP_LIMIT): Promise<Donation[]> {
  const providers = allProviders().filter((p) => p.balance).map((p) => p.name as string);
  if (providers.length === 0) return [];
  return db
    .selectFrom('donations as d')
    .selectAll('d')
    .where('d.provider', 'in', providers)
    .where('d.status', 'in', ['succeeded', 'refunded'])
    .where((eb) =>
      eb.or([
        eb.not(eb.exists(eb.selectFrom('provider_balance_moves as m').select('m.id').whereRef('m.donation_id', '=', 'd.id').where('m.kind', '=', 'payment'))),
        eb.and([eb('d.status', '=', 'refunded'), eb.not(eb.exists(eb.selectFrom('provider_balance_moves as m').select('m.id').whereRef('m.donation_id', '=', 'd.id').where('m.kind', 'in', ['refund', 'dispute'])))]),
        eb.and([
          eb.exists(eb.selectFrom('payment_disputes as x').select('x.id').whereRef('x.donation_id', '=', 'd.id')),
          eb.not(eb.exists(eb.selectFrom('provider_balance_moves as m').select('m.id').whereRef('m.donation_id', '=', 'd.id').where('m.kind', '=', 'dispute'))),
        ]),
      ]),
    )
    .orderBy('d.succeeded_at', 'desc')
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

export interface CatchUp {
  asked: number;
  failed: number;
  payouts: number;
}

/** One catch-up run: each missing gift asked once (a failure is logged and left for the next run), then the recent payouts. */
export async function catchUpFees(deps: DonationDeps, now = new Date(), limit = CATCH_UP_LIMIT): Promise<CatchUp> {
  const gifts = await giftsMissingMoves(deps.db, limit);
  let failed = 0;
  for (const g of gifts) {
    try {
      await fetchGiftMoves(deps, g, now);
    } catch (e) {
      failed += 1;
      log.warn('provider fees not fetched', { donationId: g.id, provider: g.provider, error: e instanceof Error ? e.message : String(e) });
    }
  }
  const payouts = await fetchPayouts(deps, new Date(now.getTime() - PAYOUT_WINDOW_DAYS * DAY_MS), now);
  return { asked: gifts.length, failed, payouts };
}

const HOURLY_MS = 60 * 60 * 1000;

/** The hourly catch-up, started by the composition root (server/runtime-hooks.ts); one instance a window. */
export function startFeeCatchUp(deps: () => Promise<DonationDeps>): () => void {
  const run = () =>
    deps()
      .then((d) => onceAcrossInstances(d.db, 'provider-fees', HOURLY_MS - 60_000, async () => {
        const r = await catchUpFees(d);
        if (r.asked || r.payouts) log.info('provider fees caught up', { ...r });
      }))
      .catch((e) => log.warn('provider fees catch-up failed', { error: e instanceof Error ? e.message : String(e) }));
  const first = setTimeout(run, 2 * 60_000);
  const timer = setInterval(run, HOURLY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
