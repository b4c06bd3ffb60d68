import type { DB, DbHandle } from '~db/index';
import { seedDefaults } from '~db/seed';
import { startDonationRechecks } from '~/domain/donations/deps.server';
import { pruneDonorAccess } from '~/domain/donors/links.server';
import { purgeExpiredPersonalData } from '~/domain/donors/personal-data.server';
import { runMembershipReminders } from '~/domain/membership/reminders.server';
import { startScheduledPublishing } from '~/domain/revisions/schedule.server';
import { ensureFirstAdmin } from '~/domain/users/bootstrap.server';
import { pruneSessions } from '~/domain/users/sessions.server';
import type { Env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { runtime, type RuntimeHooks } from '~/lib/runtime.server';

/** Expired back-office sessions, donor sign-in links, and personal data past retention, are removed this often. */
const HOURLY_MS = 60 * 60 * 1000;

/** The areas' hourly pruning (every HOURLY_MS): a failure is logged, and tried again next hour. */
export async function pruneHourly(db: DB, retentionDays: number): Promise<void> {
  await Promise.all([pruneSessions(db), pruneDonorAccess(db), purgeExpiredPersonalData(db, retentionDays)]).catch((e) =>
    log.warn('pruning failed', { error: e instanceof Error ? e.message : String(e) }),
  );
}

/**
 * Membership renewal reminders (ADR 021): a minute after start, then hourly. Each step is claimed
 * per member in the database, so every instance may run it; a failure is logged and retried.
 */
export async function remindMembers(db: DB, env: Env): Promise<void> {
  const rt = runtime();
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
    if (await seedDefaults(handle.db, storage, env.DATA_RETENTION_DAYS)) log.info('default content seeded');
    await ensureFirstAdmin(handle.db, env);
  },
  jobs(handle: DbHandle, env: Env) {
    const hourly = setInterval(() => void pruneHourly(handle.db, env.DATA_RETENTION_DAYS), HOURLY_MS);
    hourly.unref();
    const firstReminders = setTimeout(() => void remindMembers(handle.db, env), 60_000);
    const reminders = setInterval(() => void remindMembers(handle.db, env), HOURLY_MS);
    firstReminders.unref();
    reminders.unref();
    // Pending donations are re-checked with their provider now and periodically (a lost webhook
    // loses nothing); the tax receipts' January run and the campaigns' midnight refresh share it.
    const stopRechecks = startDonationRechecks();
    // Drafts scheduled for publication are published when due (ADR 015).
    const stopScheduling = startScheduledPublishing();
    return () => {
      clearInterval(hourly);
      clearTimeout(firstReminders);
      clearInterval(reminders);
      stopRechecks();
      stopScheduling();
    };
  },
};
