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

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down` }));
  const force = setTimeout(() => server.closeAllConnections(), 20_000);
  force.unref();
  await new Promise((resolve) => server.close(resolve));
  clearTimeout(force);
  await stopRuntime();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
