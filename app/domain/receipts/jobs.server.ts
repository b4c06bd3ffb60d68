import type { DB } from '~db/index';
import { parisYear } from '~/lib/paris';
import type { Env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { mailConfigFor } from '~/lib/mail.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import type { Storage } from '~/lib/storage.server';
import { mailAnnualReceipts } from './mail.server';
import { issueAnnualStatements, type Receipt } from './register.server';

export interface AnnualDeps {
  db: DB;
  env: Env;
  /** The trusted origin (ADR 010), for the sender's address. */
  publicUrl: string | undefined;
  storage?: Storage;
}

/** Issues and mails the annual receipts of `year` (on demand by an Admin, or the January job). */
export async function runAnnualStatements(deps: AnnualDeps, year: number, now = new Date()): Promise<{ issued: Receipt[]; mailed: number }> {
  const issued = await issueAnnualStatements(deps.db, year, now);
  // Also those issued earlier but never mailed (a crash or an SMTP failure between the two steps).
  const unsent = await deps.db.selectFrom('receipts').selectAll().where('kind', '=', 'annual').where('status', '=', 'issued').where('sent_at', 'is', null).where('donor_email', 'is not', null).execute();
  const mailed = await mailAnnualReceipts(deps.db, mailConfigFor(deps.env, deps.publicUrl), unsent, deps.storage);
  return { issued, mailed };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The January run: from January on, the previous year's annual receipts are issued once. The
 * year's claim goes through the counter every instance shares (one instance does it), and the
 * statement itself skips gifts already covered, so a second run never issues twice.
 */
export async function januaryRun(deps: AnnualDeps, now = new Date()): Promise<boolean> {
  if (now.getUTCMonth() !== 0) return false;
  const year = parisYear(now) - 1;
  // Stryker disable next-line StringLiteral: one claim per year; two years' January runs are a year apart, beyond the claim's 60 days, so one key for all would behave the same
  const claim = await hitRateLimit(deps.db, `job:receipts-annual-${year}`, 1, 60 * DAY_MS, now.getTime());
  if (!claim.allowed) return false;
  const { issued } = await runAnnualStatements(deps, year, now);
  log.info('annual tax receipts issued', { year, count: issued.length });
  return true;
}

/** Checks every six hours whether the January run is due. */
export function startAnnualReceiptJob(deps: () => Promise<AnnualDeps>): () => void {
  const run = () =>
    deps()
      .then((d) => januaryRun(d))
      .catch((e) => log.warn('annual tax receipts failed', { error: e instanceof Error ? e.message : String(e) }));
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, 6 * 60 * 60 * 1000);
  // Stryker disable next-line all: unref only lets the process exit while the job waits, which no test process observes
  first.unref();
  // Stryker disable next-line all: as above
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
