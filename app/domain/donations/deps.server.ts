import { log } from '~/lib/log.server';
import { trustedOrigin } from '~/lib/origin.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { runtime } from '~/lib/runtime.server';
import { receiptContext } from '~/domain/receipts/register.server';
import type { DonationDeps } from './context.server';
import { getPaymentSettings } from './providers/settings.server';
import { recheckPending } from './payments.server';
import { startPace } from './start-pace.server';

/** Everything a payment route needs, read fresh for this request (settings may just have changed). */
export async function donationDeps(request?: Request): Promise<DonationDeps> {
  const rt = runtime();
  return {
    db: rt.db,
    env: rt.env,
    settings: await getPaymentSettings(rt.db, rt.secret),
    // Never the Host a stranger's request named (ADR 010); the periodic jobs, without a request, use localhost.
    publicUrl: request ? trustedOrigin(request) : (rt.publicUrl ?? `http://localhost:${rt.env.PORT}`),
    storage: rt.storage,
    secret: rt.secret,
    receipts: await receiptContext(rt.db),
    pace: startPace,
  };
}

/** Pending attempts are re-checked with their provider at start and then every few minutes. */
export const RECHECK_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Runs `job` unless another instance already ran it in this window: the window is claimed through
 * the database-backed counter every instance shares, so N instances do the work once.
 */
export async function onceAcrossInstances(db: DonationDeps['db'], name: string, windowMs: number, job: () => Promise<void>): Promise<boolean> {
  const claim = await hitRateLimit(db, `job:${name}`, 1, windowMs);
  if (!claim.allowed) return false;
  await job();
  return true;
}

/** The payments' periodic job, started by the composition root (server/runtime-hooks.ts, ADR 018). */
export function startDonationRechecks(): () => void {
  // At start every pending attempt is asked about (a restart mid-payment loses nothing); later, those older than a minute.
  const run = (key: string, windowMs: number, minAgeMs?: number) =>
    donationDeps()
      .then((deps) => onceAcrossInstances(deps.db, key, windowMs, () => recheckPending(deps, new Date(), minAgeMs).then(() => undefined)))
      .catch((e) => log.warn('donation re-check failed', { error: e instanceof Error ? e.message : String(e) }));
  const first = setTimeout(() => run('donation-recheck-start', 30_000, 0), 1000);
  const timer = setInterval(() => run('donation-recheck', RECHECK_INTERVAL_MS - 10_000), RECHECK_INTERVAL_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
