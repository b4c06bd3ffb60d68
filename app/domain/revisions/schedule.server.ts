import { log } from '~/lib/log.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { editable } from './registry.server';
import { publishDue } from './workflow.server';

/** Scheduled items are looked for this often (SCHEDULE_INTERVAL_MS overrides it, e.g. in e2e). */
export const SCHEDULE_INTERVAL_MS = 30_000;

/** One pass of the job: publishes what is due and, if anything was, empties every instance's cache. */
export async function runScheduledPublishing(now = new Date()): Promise<number> {
  const published = await publishDue(db(), editable, now);
  if (published.length > 0) {
    await contentChanged();
    log.info('scheduled items published', { items: published.map((r) => `${r.type}:${r.id}`) });
  }
  return published.length;
}

export function startScheduledPublishing(intervalMs = Number(process.env.SCHEDULE_INTERVAL_MS) || SCHEDULE_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runScheduledPublishing()
      .catch((e) => log.warn('scheduled publishing failed', { error: e instanceof Error ? e.message : String(e) }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
