// Production entry: starts the runtime (migrations, seed), serves the built app, stops cleanly.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// React and React Router pick their production builds from NODE_ENV: production unless told otherwise.
process.env.NODE_ENV ??= 'production';

const here = path.dirname(fileURLToPath(import.meta.url));
const { createApp, startRuntime, stopRuntime } = await import('./build/server/index.js');

let rt;
try {
  rt = await startRuntime();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const app = createApp(path.join(here, 'build', 'client'));
const server = app.listen(rt.env.PORT, rt.env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : rt.env.PORT;
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `listening on http://localhost:${port}`, port }));
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
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down` }));
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
process.on('SIGINT', () => void shutdown('SIGINT'));
