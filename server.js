// Production entry. With more than one core (or WEB_CONCURRENCY > 1) this process is the primary of
// a node:cluster: it loads none of the app, starts one worker first (which migrates and seeds), then
// the others, relays content-change notices between them (SQLite has no NOTIFY), restarts a worker
// that dies, and on SIGTERM/SIGINT lets every worker drain and stop. With one, the process itself
// serves (ADR 017).
//
// `node server.js` is the start command for production and containers (README, "Run it"): it makes
// `npm start`'s checks without npm's process beside it for the whole run (about 70 MB, `npm run
// bench`), and without building (a container's root may be read-only): a Node.js too old stops it
// with one sentence, so does a missing build; a build older than the sources is served with a
// warning. `npm start` (scripts/start.js) builds first when needed, then runs this file.
import { exitIfUnsupported } from './scripts/check-node.cjs';
import cluster from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { buildState } from './scripts/build-state.js';

// React and React Router pick their production builds from NODE_ENV: production unless told otherwise.
process.env.NODE_ENV ??= 'production';

const here = path.dirname(fileURLToPath(import.meta.url));

// Checked once, by the first process (not again after its restart in place, nor in a cluster's workers).
if (!process.env.THV_MEMORY_SET && !cluster.isWorker) {
  exitIfUnsupported();
  const state = process.env.THV_BUILD_CHECKED ? 'fresh' : buildState(here);
  if (state === 'missing') {
    console.error('The site is not built: run `npm run build` first (or `npm start`, which builds when needed).');
    process.exit(1);
  }
  if (state === 'stale') {
    console.log(JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: 'the build is older than the sources: run `npm run build` to serve the current code' }));
  }
}

/**
 * Memory (ADR 017, "Memory by default"). V8 sizes its heap from the machine's memory, and glibc
 * gives each allocating thread an arena of its own that it seldom hands back: on a machine with
 * gigabytes to spare, 50 renders at once kept one process near 550 MiB. Settled when a process
 * starts, so the server starts itself again, once, in place (same process id, same arguments;
 * `process.execve`) with:
 * - 16 MiB semi-spaces (the young generation);
 * - an old generation of at most 1 GiB, when V8 would allow more. V8 grows the heap less eagerly
 *   under a smaller limit: with its own (4 GiB on a 24 GiB machine) a full collection came when the
 *   old generation held about three times its live data, with 1 GiB at about one and a half (2 GiB
 *   made no difference). The rendered load's peak falls from about 360 MiB to 220–275 MiB, for ~8 %
 *   fewer rendered pages a second (ADR 017); V8's own smaller limit (a small container) is never
 *   raised;
 * - two arenas.
 * An operator's own `--max-semi-space-size` or `--max-old-space-size` (NODE_OPTIONS or the command
 * line) or `MALLOC_ARENA_MAX` wins. Workers of a cluster inherit all three from their primary.
 */
const LEAN_YOUNG_GENERATION = '--max-semi-space-size=16';
const OLD_GENERATION_MIB = 1024;
if (!process.env.THV_MEMORY_SET && !cluster.isWorker && typeof process.execve === 'function') {
  const given = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  const flags = [];
  if (!/--max[-_]semi[-_]space[-_]size/.test(given)) flags.push(LEAN_YOUNG_GENERATION);
  const v8Limit = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  if (!/--max[-_]old[-_]space[-_]size/.test(given) && v8Limit > OLD_GENERATION_MIB) flags.push(`--max-old-space-size=${OLD_GENERATION_MIB}`);
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    ...process.env,
    THV_MEMORY_SET: '1',
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  });
}
const log = (level, msg, extra = {}) => console.log(JSON.stringify({ time: new Date().toISOString(), level, msg, ...extra }));

function concurrency() {
  const raw = (process.env.WEB_CONCURRENCY ?? '').trim();
  if (raw === '' || raw === 'auto') return Math.max(1, os.availableParallelism());
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`Invalid environment: WEB_CONCURRENCY must be a whole number from 1 to 64, or "auto" (got "${raw}")`);
    process.exit(1);
  }
  return n;
}

if (cluster.isPrimary && concurrency() > 1) {
  await runPrimary(concurrency());
} else {
  await runWorker();
}

async function runPrimary(count) {
  cluster.setupPrimary({ exec: path.join(here, 'server.js') });
  let stopping = false;
  /** Every first worker is listening: from then on, any worker that dies is replaced. */
  let started = false;
  /** The worker that runs periodic jobs; a replacement takes the role over when it dies. */
  let jobsWorker;
  const listened = new WeakSet();
  const fork = () => {
    const runJobs = !jobsWorker || jobsWorker.isDead();
    // The primary's memory settings (above) reach the workers: its V8 flags and its environment.
    const worker = cluster.fork({ THV_WORKER: '1', THV_RUN_JOBS: runJobs ? '1' : '0' });
    if (runJobs) jobsWorker = worker;
    worker.once('listening', () => listened.add(worker));
    return worker;
  };
  const listening = (worker) =>
    new Promise((resolve, reject) => {
      worker.once('listening', resolve);
      worker.once('exit', (code) => reject(new Error(`worker exited with code ${code} before listening`)));
    });

  // Signals are handled from the first moment: a SIGTERM during start-up stops the workers
  // already forked and exits 0, like any other stop.
  const shutdown = (signal) => {
    if (stopping) return;
    stopping = true;
    log('info', `${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    const alive = () => Object.values(cluster.workers ?? {}).some((w) => w && !w.isDead());
    const check = setInterval(() => {
      if (!alive()) {
        clearInterval(check);
        process.exit(0);
      }
    }, 100);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // Relay: a worker that changed content tells the others to drop their cached pages.
  cluster.on('message', (from, message) => {
    if (message?.type !== 'thv:content-changed') return;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker && worker !== from) worker.send(message);
  });

  // A worker that dies once it has served (or after start-up) is replaced, with a growing delay;
  // one that dies again and again (a bad deployment) is not restarted forever.
  let recentDeaths = [];
  cluster.on('exit', (worker, code, signal) => {
    if (stopping || (!started && !listened.has(worker))) return;
    log('error', 'worker died; starting another', { pid: worker.process.pid, code, signal });
    const now = Date.now();
    recentDeaths = [...recentDeaths.filter((t) => now - t < 60_000), now];
    if (recentDeaths.length > count * 5) {
      log('error', 'workers keep dying: stopping');
      process.exit(1);
    }
    setTimeout(() => {
      if (!stopping) fork();
    }, Math.min(1000 * recentDeaths.length, 10_000)).unref();
  });

  // The first worker migrates the database and seeds it; the others start on a ready database.
  // A worker that cannot start (bad configuration) stops everything with its message.
  try {
    await listening(fork());
    await Promise.all(Array.from({ length: count - 1 }, () => listening(fork())));
  } catch (error) {
    if (stopping) return;
    log('error', `could not start: ${error.message}`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(1);
  }
  if (stopping) return;
  started = true;
  log('info', `${count} workers serving on port ${process.env.PORT ?? 3000}`, { workers: count });
}

async function runWorker() {
  const http = await import('node:http');
  const { acceptsFirst, createApp, createFastPath, startRuntime, stopRuntime } = await import('./build/server/index.js');

  let rt;
  try {
    rt = await startRuntime();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }

  const app = createApp(path.join(here, 'build', 'client'));
  // Cached pages are answered before the app's middleware chain; everything else goes through it.
  const fast = createFastPath(app);
  const server = http.createServer((req, res) => {
    if (!fast(req, res)) app(req, res);
  });
  // A burst of new connections is accepted at once, not one per render (server/turns.ts).
  acceptsFirst(server);
  server.listen(rt.env.PORT, rt.env.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : rt.env.PORT;
    log('info', `listening on http://localhost:${port}`, { port, ...(cluster.isWorker ? { worker: cluster.worker.id } : {}) });
  });
  server.keepAliveTimeout = 65_000;
  // CONNECT (a proxy's method) is not ours: answered 405 instead of a dropped connection.
  server.on('connect', (_req, socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });

  // Graceful stop (SIGTERM/SIGINT): /readyz fails at once and, for SHUTDOWN_DRAIN_MS, requests are
  // still served (a load balancer notices and stops sending); then stop accepting connections, let
  // every request already on a connection finish (answered with `Connection: close`), close idle
  // connections as they become idle, force the rest after 20 s, and close the database.
  const GRACE_MS = 20_000;
  let stopping = false;
  server.on('request', (_req, res) => {
    if (stopping && !res.headersSent) res.setHeader('Connection', 'close');
  });
  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    if (!cluster.isWorker) log('info', `${signal}: shutting down`);
    rt.draining = true;
    if (rt.env.SHUTDOWN_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, rt.env.SHUTDOWN_DRAIN_MS));
    // Node's close() would drop connections that are open but whose request has not arrived yet:
    // keep them until they have had a moment to send it.
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {};
    const closed = new Promise((resolve) => server.close(resolve));
    const sweep = setInterval(closeIdle, 1000);
    const force = setTimeout(() => server.closeAllConnections(), GRACE_MS);
    force.unref();
    await closed;
    clearInterval(sweep);
    clearTimeout(force);
    await stopRuntime();
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A worker's Ctrl-C reaches the primary, which sends SIGTERM: the worker ignores the SIGINT itself.
  process.on('SIGINT', () => (cluster.isWorker ? undefined : void shutdown('SIGINT')));
}
