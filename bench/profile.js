// `npm run bench:profile -- [path] [seconds]`: where one rendered page's CPU time goes.
// Starts the built server with the HTML cache off (HTML_CACHE=on to profile cached pages) under `node --cpu-prof`, loads the page from
// 127.0.0.1 for a bounded time, stops the server (which writes the profile) and prints the share of
// busy time by package and the app's functions by inclusive time. The .cpuprofile is kept in
// bench/results/ for Chrome DevTools or speedscope.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = process.argv[2] ?? '/';
const seconds = Number(process.argv[3] ?? 10);
const port = Number(process.env.BENCH_PORT ?? 3309);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-profile-'));
const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-cpuprof-'));

const server = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, 'server.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', HTML_CACHE: process.env.HTML_CACHE ?? 'off', WEB_CONCURRENCY: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {}
  if (i > 300) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}
const headers = { cookie: process.env.BENCH_COOKIE ?? 'lng=fr', 'accept-encoding': 'gzip' };
// The profile's clock is the system's monotonic clock, as is hrtime here: samples taken before the
// load (startup, seeding) are left out.
const loadStartUs = Number(process.hrtime.bigint() / 1000n);
const result = await new Promise((resolve, reject) =>
  autocannon({ url: `http://127.0.0.1:${port}${target}`, connections: 10, duration: seconds, headers }, (e, r) => (e ? reject(e) : resolve(r))),
);
server.kill('SIGINT');
await new Promise((r) => server.once('exit', r));

const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTime = new Map();
let clock = profile.startTime;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas[i] ?? 0;
  if (clock >= loadStartUs) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const idle = [...selfTime].filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
const busy = [...selfTime.values()].reduce((a, t) => a + t, 0) - idle;
const where = (n) => {
  const url = n.callFrame.url;
  if (!url) return `(${n.callFrame.functionName || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? pkg[1] : url.startsWith('node:') ? url : path.relative(root, fileURLToPath(url.startsWith('file:') ? url : `file://${url}`));
};
const byPackage = new Map();
for (const [id, t] of selfTime) {
  const n = nodes.get(id);
  if (n.callFrame.functionName === '(idle)') continue;
  byPackage.set(where(n), (byPackage.get(where(n)) ?? 0) + t);
}
const inclusive = new Map();
const total = (n) => {
  if (inclusive.has(n.id)) return inclusive.get(n.id);
  let t = selfTime.get(n.id) ?? 0;
  for (const c of n.children ?? []) t += total(nodes.get(c));
  inclusive.set(n.id, t);
  return t;
};
const parents = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
const key = (n) => `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}`;
const byFunction = new Map();
for (const n of profile.nodes) {
  if (!n.callFrame.url.includes(process.env.PROFILE_FILTER ?? '/build/server/')) continue;
  let a = parents.get(n.id);
  let recursive = false;
  while (a !== undefined) {
    if (key(nodes.get(a)) === key(n)) recursive = true;
    a = parents.get(a);
  }
  if (!recursive) byFunction.set(key(n), (byFunction.get(key(n)) ?? 0) + total(n));
}
const pct = (t) => `${((t / busy) * 100).toFixed(1).padStart(5)} %`;
console.log(`${target}: ${Math.round(result.requests.average)} req/s at 10 connections; ${(busy / 1000 / result.requests.total).toFixed(2)} ms of CPU per request`);
console.log('\nBusy time by package (self time):');
for (const [k, t] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(t)}  ${k}`);
console.log('\nApp functions (inclusive time):');
for (const [k, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(t)}  ${k}`);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
const out = path.join(root, 'bench', 'results', `profile-${target.replace(/\W+/g, '_') || 'home'}.cpuprofile`);
fs.copyFileSync(path.join(profDir, file), out);
console.log(`\nProfile: ${path.relative(root, out)}`);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.rmSync(profDir, { recursive: true, force: true });
