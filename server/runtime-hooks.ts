import type { DB, DbHandle } from '~db/index';
import { seedDefaults } from '~db/seed';
import { msUntilParisMidnight } from '~/domain/campaigns/refresh.server';
import { today } from '~/domain/content/forms';
import { donationDeps, startDonationRechecks } from '~/domain/donations/deps.server';
import { startAnnualReceiptJob } from '~/domain/receipts/jobs.server';
import { startFeeCatchUp } from '~/domain/donations/fees-job.server';
import { startImportJob } from '~/domain/imports/run.server';
import { pruneDonorAccess } from '~/domain/donors/links.server';
import { startLetterSending } from '~/domain/letters/worker.server';
import { purgeExpiredPersonalData } from '~/domain/donors/personal-data.server';
import { purgeLapsedMembers } from '~/domain/membership/personal-data.server';
import { reconcileDues } from '~/domain/membership/reconcile.server';
import { runMembershipReminders } from '~/domain/membership/reminders.server';
import { startScheduledPublishing } from '~/domain/revisions/schedule.server';
import { ensureFirstAdmin } from '~/domain/users/bootstrap.server';
import { pruneSessions } from '~/domain/users/sessions.server';
import type { Env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { deliverBulk, mailConfigFor } from '~/lib/mail.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { contentChanged, runtime, type RuntimeHooks } from '~/lib/runtime.server';
import { campaignPages, registerFeeFetching, registerPaymentSubscribers } from './payment-subscribers';

/** Expired back-office sessions, donor sign-in links, and personal data past retention (lapsed members' too), are removed this often. */
const HOURLY_MS = 60 * 60 * 1000;

/** The areas' hourly pruning (every HOURLY_MS): a failure is logged, and tried again next hour. */
export async function pruneHourly(db: DB, retentionDays: number): Promise<void> {
  // Lapsed members' data go after the retention set in the membership settings (ADR 021).
  await Promise.all([pruneSessions(db), pruneDonorAccess(db), purgeExpiredPersonalData(db, retentionDays), purgeLapsedMembers(db)]).catch((e) =>
    log.warn('pruning failed', { error: e instanceof Error ? e.message : String(e) }),
  );
}

/**
 * Campaign pages show days left and close after their end date: the pages go as the day changes in
 * Paris. Every instance's job runs it; the first to claim the day in the database refreshes (its
 * `contentChanged` tells the other instances, and purges the CDN once, ADR 025), the others have
 * nothing left to do. Answers whether this instance refreshed.
 */
export async function midnightRefresh(db: DB, day = today()): Promise<boolean> {
  if (!(await hitRateLimit(db, `midnight-refresh:${day}`, 1, 86_400_000)).allowed) return false;
  await contentChanged();
  return true;
}

/**
 * Membership renewal reminders (ADR 021): a minute after start, then hourly. Each step is claimed
 * per member in the database, so every instance may run it; a failure is logged and retried.
 * First, dues whose payment event was lost are applied (or revoked), so that no member who paid
 * is reminded to pay.
 */
export async function remindMembers(db: DB, env: Env): Promise<void> {
  const rt = runtime();
  try {
    await reconcileDues({ ...(await donationDeps()), db });
  } catch (e) {
    log.warn('dues reconciliation failed', { error: e instanceof Error ? e.message : String(e) });
  }
  await runMembershipReminders({ db, env, publicUrl: rt.publicUrl, secret: rt.secret })
    .then((r) => (r.emailed || r.paper || r.failed ? log.info('membership reminders', { ...r }) : undefined))
    .catch((e) => log.warn('membership reminders failed', { error: e instanceof Error ? e.message : String(e) }));
}

/**
 * The product's part of starting the runtime: the composition root that knows the areas, so that
 * app/lib (the runtime) never imports app/domain.
 */
export const runtimeHooks: RuntimeHooks = {
  async prepare(handle, env, storage) {
    // What follows a payment (ADR 019), in every process: a webhook may reach any worker.
    registerPaymentSubscribers();
    registerFeeFetching();
    if (await seedDefaults(handle.db, storage, env.DATA_RETENTION_DAYS)) log.info('default content seeded');
    await ensureFirstAdmin(handle.db, env);
  },
  jobs(handle: DbHandle, env: Env) {
    const hourly = setInterval(() => void pruneHourly(handle.db, env.DATA_RETENTION_DAYS), HOURLY_MS);
    hourly.unref();
    // Membership renewal reminders, a minute after start and then hourly (ADR 021).
    const firstReminders = setTimeout(() => void remindMembers(handle.db, env), 60_000);
    const reminders = setInterval(() => void remindMembers(handle.db, env), HOURLY_MS);
    firstReminders.unref();
    reminders.unref();
    // Pending donations are re-checked with their provider now and periodically (a lost webhook loses nothing).
    const stopRechecks = startDonationRechecks();
    // The tax receipts' January run.
    const stopAnnual = startAnnualReceiptJob(() => donationDeps());
    // The providers' fees and payouts a payment's background fetch missed, hourly (ADR 033).
    const stopFees = startFeeCatchUp(() => donationDeps());
    // Imports left running by a restart are resumed where they stopped (ADR 036).
    const stopImports = startImportJob(() => ({ db: handle.db, storage: runtime().storage }));
    // Campaign pages show days left and close after their end date: the cache is dropped as the day changes.
    let midnight: ReturnType<typeof setTimeout>;
    const atMidnight = () => {
      midnight = setTimeout(() => {
        midnightRefresh(handle.db).catch((e) => log.warn('midnight refresh failed', { error: e instanceof Error ? e.message : String(e) }));
        atMidnight();
      }, msUntilParisMidnight());
      midnight.unref();
    };
    atMidnight();
    // Drafts scheduled for publication are published when due (ADR 015).
    const stopScheduling = startScheduledPublishing();
    // Letters are sent in the background, at the Admin's rate, claimed row by row (ADR 022).
    const publicUrl = env.PUBLIC_URL?.replace(/\/$/, '');
    const mail = mailConfigFor(env, publicUrl);
    const smtpUrl = mail.smtpUrl;
    const stopLetters = startLetterSending({
      db: handle.db,
      site: publicUrl ? { origin: publicUrl, appSecret: runtime().secret } : undefined,
      deliver: smtpUrl ? (m) => deliverBulk({ ...mail, smtpUrl }, m) : undefined,
      leaseMs: env.LETTERS_LEASE_MS,
    });
    return () => {
      clearInterval(hourly);
      clearTimeout(firstReminders);
      clearInterval(reminders);
      stopRechecks();
      stopAnnual();
      stopFees();
      stopImports();
      clearTimeout(midnight);
      campaignPages.stop();
      stopScheduling();
      void stopLetters();
    };
  },
};
