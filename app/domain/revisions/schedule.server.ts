import { log } from '~/lib/log.server';
import { contentChanged, db, runtime } from '~/lib/runtime.server';
import { changedKeys } from './editables.server';
import { editable } from './registry.server';
import { publishDue } from './workflow.server';

/** One pass of the job: publishes what is due and, if anything was, empties every instance's cache. */
export async function runScheduledPublishing(now = new Date()): Promise<number> {
  const published = await publishDue(db(), editable, now);
  if (published.length > 0) {
    // Each item's pages (a type the registry no longer knows: every page).
    await contentChanged(published.flatMap((r) => changedKeys(editable(r.type) ?? {}, r.id)));
    log.info('scheduled items published', { items: published.map((r) => `${r.type}:${r.id}`) });
  }
  return published.length;
}

/** Every SCHEDULE_INTERVAL_MS (default 30 s), on every instance; each item is claimed once (ADR 015). */
export function startScheduledPublishing(intervalMs = runtime().env.SCHEDULE_INTERVAL_MS): () => void {
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
