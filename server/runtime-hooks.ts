import type { DB, DbHandle } from '~db/index';
import { seedDefaults } from '~db/seed';
import { startDonationRechecks } from '~/domain/donations/deps.server';
import { pruneDonorAccess } from '~/domain/donors/links.server';
import { startLetterSending } from '~/domain/letters/worker.server';
import { purgeExpiredPersonalData } from '~/domain/donors/personal-data.server';
import { startScheduledPublishing } from '~/domain/revisions/schedule.server';
import { ensureFirstAdmin } from '~/domain/users/bootstrap.server';
import { pruneSessions } from '~/domain/users/sessions.server';
import type { Env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { deliverBulk, mailConfigFor } from '~/lib/mail.server';
import { runtime } from '~/lib/runtime.server';
import type { RuntimeHooks } from '~/lib/runtime.server';

/** Expired back-office sessions, donor sign-in links, and personal data past retention, are removed this often. */
const HOURLY_MS = 60 * 60 * 1000;

/** The areas' hourly pruning (every HOURLY_MS): a failure is logged, and tried again next hour. */
export async function pruneHourly(db: DB, retentionDays: number): Promise<void> {
  await Promise.all([pruneSessions(db), pruneDonorAccess(db), purgeExpiredPersonalData(db, retentionDays)]).catch((e) =>
    log.warn('pruning failed', { error: e instanceof Error ? e.message : String(e) }),
  );
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
    // Pending donations are re-checked with their provider now and periodically (a lost webhook
    // loses nothing); the tax receipts' January run and the campaigns' midnight refresh share it.
    const stopRechecks = startDonationRechecks();
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
      stopRechecks();
      stopScheduling();
      void stopLetters();
    };
  },
};
