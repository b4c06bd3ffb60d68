import path from 'node:path';
import { migrateToLatest, migrationStatus, openDatabase, type DB, type DbHandle } from '~db/index';
import { createBackup } from './backup.server';
import { SITE_TAG } from './cache-tags';
import { purgerFromEnv, type Purger } from './cdn-purge.server';
import { startChangeFeed, type ChangeFeed } from './change-feed.server';
import { env as readEnv, type Env } from './env.server';
import { ContentMemo } from './content-memo.server';
import { HtmlCache } from './html-cache.server';
import { log, setLogLevel } from './log.server';
import { closeMailTransports } from './mail.server';
import { pruneRateLimits } from './rate-limit.server';
import { loadAppSecret } from './secret.server';
import { storageFromEnv, type Storage } from './storage.server';

/**
 * The process-wide state: environment, database, media storage, HTML cache and content memo.
 * Started once by the server (and by tests), stopped on shutdown. Routes reach it through these accessors.
 */
export interface Runtime {
  env: Env;
  handle: DbHandle;
  db: DB;
  storage: Storage;
  secret: string;
  cache: HtmlCache;
  /** Published content read once per content version (ADR 017), dropped with the HTML cache. */
  memo: ContentMemo;
  publicUrl: string | undefined;
  /** Built enhancement scripts by name (build/enhance-manifest.json), set by the server. */
  assets: Record<string, string>;
  /** Content-change notifications between instances (PostgreSQL). */
  changes: ChangeFeed;
  /** Drops a CDN's copies of changed pages (ADR 025); by the instance that made the change only. */
  purger: Purger;
  /** Set on SIGTERM: /readyz answers 503 so that a load balancer stops sending requests. */
  draining: boolean;
}

let current: Runtime | undefined;
let starting: Promise<Runtime> | undefined;
let pruneTimer: ReturnType<typeof setInterval> | undefined;
let stopHookJobs: (() => void) | undefined;
/** Expired rate-limit windows are removed this often (the areas' own pruning is in their jobs). */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * What the product adds to the runtime, composed by the server (server/runtime-hooks.ts): this
 * module is infrastructure and knows no business area.
 */
export interface RuntimeHooks {
  /** After the migrations, before serving: default content, the first Admin… */
  prepare?: (handle: DbHandle, env: Env, storage: Storage) => Promise<void>;
  /** Starts the areas' periodic jobs (one worker of a cluster runs them); returns their stop. */
  jobs?: (handle: DbHandle, env: Env) => () => void;
}

export function startRuntime(envOverride?: Env, hooks: RuntimeHooks = {}): Promise<Runtime> {
  starting ??= (async () => {
    const env = envOverride ?? readEnv();
    setLogLevel(env.LOG_LEVEL);
    const dataDir = path.resolve(env.DATA_DIR);
    const handle = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      const storage = storageFromEnv(env, dataDir);
      await backupBeforeMigrating(handle, storage, dataDir);
      await migrateToLatest(handle.db);
      await hooks.prepare?.(handle, env, storage);
      const cache = new HtmlCache();
      const memo = new ContentMemo();
      current = {
        env,
        handle,
        db: handle.db,
        storage,
        secret: loadAppSecret(env.APP_SECRET, dataDir),
        cache,
        memo,
        publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
        assets: {},
        changes: startChangeFeed(handle, env.DATABASE_URL, () => forgetContent(cache, memo)),
        purger: purgerFromEnv(env),
        draining: false,
      };
      // Under a cluster only one worker runs the periodic jobs (server.js sets THV_RUN_JOBS); across
      // instances the jobs claim their window in the database anyway.
      if (runsJobs()) startJobs(handle, env, hooks);
      log.info('runtime ready', { database: handle.dialect });
      return current;
    } catch (e) {
      await handle.close().catch(() => undefined);
      starting = undefined;
      throw e;
    }
  })();
  return starting;
}

/** Whether this process runs the periodic jobs: always, but for the non-first workers of a cluster. */
export function runsJobs(): boolean {
  return process.env.THV_RUN_JOBS !== '0';
}

function startJobs(handle: DbHandle, env: Env, hooks: RuntimeHooks): void {
  pruneTimer = setInterval(() => {
    pruneRateLimits(handle.db).catch((e) => log.warn('pruning failed', { error: e instanceof Error ? e.message : String(e) }));
  }, PRUNE_INTERVAL_MS);
  pruneTimer.unref();
  stopHookJobs = hooks.jobs?.(handle, env);
}

/** A site with data that is about to be migrated is backed up first, under DATA_DIR/backups. */
export async function backupBeforeMigrating(handle: DbHandle, storage: Storage, dataDir: string): Promise<void> {
  const { executed, pending } = await migrationStatus(handle.db);
  if (executed.length === 0 || pending.length === 0) return;
  const file = path.join(dataDir, 'backups', `before-${pending[0]}-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  await createBackup(handle, storage, file);
  log.info('backup taken before migrating', { file, pending });
}

export function runtime(): Runtime {
  if (!current) throw new Error('runtime not started');
  return current;
}

export function db(): DB {
  return runtime().db;
}

/** The settings the runtime was started with; the environment's when it is not started (scripts, data-layer tests). */
export function settings(): Env {
  return current?.env ?? readEnv();
}

/** Cached pages and remembered content go together: here, and in every other instance (the change feed). */
function forgetContent(cache: HtmlCache, memo: ContentMemo): void {
  cache.clear();
  memo.clear();
}

/**
 * Every content write calls this: cached pages and remembered content are dropped at once, here
 * and in every other instance (which only forget: the change feed). Then, from this instance
 * alone, a CDN's copies of the pages carrying `keys` (app/lib/cache-tags.ts; default: every page)
 * are purged in the background (ADR 025).
 */
export async function contentChanged(keys: readonly string[] = [SITE_TAG]): Promise<void> {
  const rt = runtime();
  forgetContent(rt.cache, rt.memo);
  await rt.db
    .updateTable('content_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
  await rt.changes.publish();
  rt.purger.purge(keys);
}

export async function stopRuntime(): Promise<void> {
  const rt = current;
  current = undefined;
  starting = undefined;
  clearInterval(pruneTimer);
  stopHookJobs?.();
  stopHookJobs = undefined;
  closeMailTransports();
  await rt?.changes.close();
  await rt?.purger.idle();
  if (rt) await rt.handle.close();
}
