import { log } from '~/lib/log.server';
import { runtime } from '~/lib/runtime.server';
import { getPaymentSettings } from './payment-settings.server';
import { recheckPending, type DonationDeps } from './service.server';

/** Everything a donation route needs, read fresh for this request (settings may just have changed). */
export async function donationDeps(request?: Request): Promise<DonationDeps> {
  const rt = runtime();
  return {
    db: rt.db,
    env: rt.env,
    settings: await getPaymentSettings(rt.db, rt.secret),
    publicUrl: rt.publicUrl ?? (request ? new URL(request.url).origin : `http://localhost:${rt.env.PORT}`),
  };
}

/** Pending attempts are re-checked with their provider at start and then every few minutes. */
export const RECHECK_INTERVAL_MS = 5 * 60 * 1000;

export function startDonationRechecks(): () => void {
  // At start every pending attempt is asked about (a restart mid-payment loses nothing); later, those older than a minute.
  const run = (minAgeMs?: number) =>
    donationDeps()
      .then((deps) => recheckPending(deps, new Date(), minAgeMs))
      .catch((e) => log.warn('donation re-check failed', { error: e instanceof Error ? e.message : String(e) }));
  const first = setTimeout(() => run(0), 1000);
  const timer = setInterval(() => run(), RECHECK_INTERVAL_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
