// SIGTERM under a stream of requests, inside the container (tests/container/run.sh): the
// drain test (tests/e2e/ops/restart.spec.ts, same load: tests/support/drain-load.ts) with the
// container as the server. After a second of load, `podman kill --signal TERM` reaches tini
// (PID 1), which hands it to the server. Passes when /readyz failed during the drain, the container
// exited 0, no request was lost and every acknowledged message is in the SQLite database on the
// /data volume.
//   tsx tests/container/drain.ts CONTAINER PORT VOLUME_MOUNTPOINT
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadThroughStop } from '../support/drain-load';

const [container, portArg, volume] = process.argv.slice(2);
const port = Number(portArg);
const fail = (message: string) => {
  console.error(`drain: FAIL: ${message}`);
  process.exit(1);
};

const exited = new Promise<string>((resolve) => {
  const w = spawn('podman', ['--runtime', 'runc', 'wait', container], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  w.stdout.on('data', (d) => (out += d));
  w.on('exit', () => resolve(out.trim()));
});
const { outcomes, okNumbers, routable } = await loadThroughStop(port, () => {
  execFileSync('podman', ['--runtime', 'runc', 'kill', '--signal', 'TERM', container], { stdio: 'ignore' });
});
const exitCode = await exited;

const lost = outcomes.filter((o) => o.startsWith('lost'));
console.log(`drain: ${outcomes.length} requests, ${okNumbers.length} answered 303, ${outcomes.length - okNumbers.length - lost.length} refused after the stop, ${lost.length} lost; /readyz failed during the drain: ${!routable}; exit code ${exitCode}`);
if (routable) fail('/readyz never failed during the drain');
if (exitCode !== '0') fail(`the container exited with ${exitCode}, not 0`);
if (okNumbers.length <= 10) fail('fewer than 11 requests were answered');
if (lost.length) fail(`lost requests: ${lost.slice(0, 5).join(', ')}`);
const db = new Database(path.join(volume, 'site.sqlite'), { readonly: true });
const stored = new Set((db.prepare("select last_name from messages where email like 'load%'").all() as { last_name: string }[]).map((r) => Number(r.last_name)));
db.close();
const missing = okNumbers.filter((i) => !stored.has(i));
if (missing.length) fail(`acknowledged messages missing from the database: ${missing.join(', ')}`);
console.log(`drain: all ${okNumbers.length} acknowledged messages are in /data/site.sqlite`);
