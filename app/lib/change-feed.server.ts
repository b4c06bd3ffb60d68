import cluster from 'node:cluster';
import pg from 'pg';
import type { DbHandle } from '~db/index';
import { log } from './log.server';

/**
 * Tells every instance that content changed, so each drops its cached pages at once (ADR 004).
 * On PostgreSQL: NOTIFY on a channel every instance LISTENs to, on a connection of its own that
 * reconnects by itself. On SQLite there is one instance, but it may run several workers (ADR 017):
 * a worker tells the cluster's primary, which tells the other workers.
 */
export const CHANNEL = 'thv_content_changed';
/** The message a worker sends to the cluster's primary, which relays it to the others (server.js). */
export const CLUSTER_MESSAGE = 'thv:content-changed';

export interface ChangeFeed {
  publish(): Promise<void>;
  close(): Promise<void>;
}

export function startChangeFeed(handle: DbHandle, databaseUrl: string | undefined, onChange: () => void): ChangeFeed {
  if (handle.dialect !== 'postgres' || !databaseUrl) {
    if (!cluster.isWorker) return { publish: async () => {}, close: async () => {} };
    const listener = (message: unknown) => {
      if ((message as { type?: string } | null)?.type === CLUSTER_MESSAGE) onChange();
    };
    process.on('message', listener);
    return {
      publish: async () => {
        process.send?.({ type: CLUSTER_MESSAGE });
      },
      close: async () => {
        process.off('message', listener);
      },
    };
  }
  let client: pg.Client | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = 500;

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (msg) => {
      if (msg.channel === CHANNEL) onChange();
    });
    c.on('error', (e) => {
      log.warn('change feed connection lost', { error: e.message });
      schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      client = c;
      delay = 500;
      // Changes made while we were not listening: drop everything once.
      onChange();
    } catch (e) {
      log.warn('change feed could not connect', { error: e instanceof Error ? e.message : String(e) });
      await c.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retry) return;
    client?.end().catch(() => {});
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, 10_000);
  };
  void connect();

  return {
    async publish() {
      await handle.pool!.query('select pg_notify($1, $2)', [CHANNEL, String(process.pid)]);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
