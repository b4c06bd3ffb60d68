// `npm run bench`: measures, on this machine and in one run, the throughput and latency of
//  - the home page and a blog post for an anonymous visitor (cached HTML),
//  - the same pages rendered on every request (HTML_CACHE=off),
//  - a static file of the same size served by a plain Node static file server (the reference),
// plus the server's peak memory. Prints a table and writes it to bench/results/latest.md.
// Every load is bounded in time and sent to 127.0.0.1 only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

if (!process.env.BENCH_SKIP_BUILD) {
  const b = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-'));

function startServer(port, extraEnv) {
  const child = spawn(process.execPath, ['server.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** Peak resident memory of a process, sampled from /proc while the load runs. */
function sampleMemory(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {}
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const rows = [];
async function measure(name, url, headers) {
  await load(url, headers).catch(() => undefined); // warm-up is part of the first run's cost: run a short one
  const r = await load(url, headers);
  const row = { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
  rows.push(row);
  console.log(row);
  return row;
}

const cachedPort = 3301;
const renderPort = 3302;
const staticPort = 3303;
const cached = startServer(cachedPort, {});
await waitFor(`http://127.0.0.1:${cachedPort}/healthz`);
const homeHtml = await (await fetch(`http://127.0.0.1:${cachedPort}/`, { headers: { cookie: 'lng=fr' } })).text();
const stopMem = sampleMemory(cached.pid);
const headers = { cookie: 'lng=fr', 'accept-encoding': 'gzip' };
const home = await measure('home, cached', `http://127.0.0.1:${cachedPort}/`, headers);
const post = await measure('blog post, cached', `http://127.0.0.1:${cachedPort}/blog/1`, headers);
const peakCached = stopMem();
cached.kill('SIGTERM');

const rendered = startServer(renderPort, { HTML_CACHE: 'off' });
await waitFor(`http://127.0.0.1:${renderPort}/healthz`);
const stopMem2 = sampleMemory(rendered.pid);
const homeR = await measure('home, rendered', `http://127.0.0.1:${renderPort}/`, headers);
const postR = await measure('blog post, rendered', `http://127.0.0.1:${renderPort}/blog/1`, headers);
const peakRendered = stopMem2();
rendered.kill('SIGTERM');

// Reference: a plain static file server in its own process, serving the same page, gzip-encoded once.
const zlib = await import('node:zlib');
const gz = zlib.gzipSync(homeHtml);
const pageFile = path.join(dataDir, 'home.html');
fs.writeFileSync(pageFile, homeHtml);
const staticServer = spawn(process.execPath, [path.join(root, 'bench', 'static-server.js'), pageFile, String(staticPort)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
await new Promise((r) => staticServer.once('message', r));
const stat = await measure('static file (same page)', `http://127.0.0.1:${staticPort}/`, headers);
staticServer.kill();

const ratio = (a) => (a.rps / stat.rps).toFixed(2);
const lines = [
  `Bench on ${os.cpus().length} cores, ${CONNECTIONS} connections, ${DURATION} s per line, ${new Date().toISOString().slice(0, 10)}`,
  '',
  '| what | req/s | p50 ms | p99 ms | errors | vs static |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${ratio(r)} |`),
  '',
  `Peak memory (RSS): ${Math.round(peakCached / 1024)} MiB with the cache, ${Math.round(peakRendered / 1024)} MiB rendering every request.`,
  `Home page HTML: ${homeHtml.length} bytes (${gz.length} gzip).`,
];
const table = lines.join('\n');
console.log(`\n${table}`);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'latest.md'), `${table}\n`);
fs.rmSync(dataDir, { recursive: true, force: true });
void home; void post; void homeR; void postR;
process.exit(0);
