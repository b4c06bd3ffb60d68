// `npm run bench`: measures, on this machine and in one run,
//  - the home page and a blog post for an anonymous visitor, served from the HTML cache and rendered
//    on every request (HTML_CACHE=off), with one worker and with one worker per core;
//  - an admin list (/admin/messages, a full page of 20 of 50 messages) for a signed-in Admin (never cached);
//  - the same home page bytes served by nginx (one worker, gzip_static) when nginx is installed, and
//    by a plain Node static file server, as references; and by a bare Node server that spends the
//    rendered home page's time on each request, taking turns, the latency floor of any Node server that costs as much;
//  - the appeal day: 200 connections (BENCH_SURGE_CONNECTIONS) on the home page and on the donate
//    page of a site with card gifts configured, `node server.js` with one worker per core;
//  - one worker's resident memory after it has served every page of the sitemap once;
//  - resident memory at rest and under load (every process of the server), and at rest started
//    both ways: `npm start` (npm's own process stays beside the server for the whole run) and
//    `node server.js` (the start command for production and containers).
// The load comes from wrk when installed (apt-get install wrk), else from autocannon. Every load is
// bounded in time and sent to 127.0.0.1 only. Prints a table and writes it to bench/results/latest.md.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CORES = os.availableParallelism();
const which = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null;
const WRK = which('wrk');
const mib = (kb) => Math.round(kb / 1024);
const NGINX = which('nginx') ?? (fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : null);

if (!process.env.BENCH_SKIP_BUILD) {
  const b = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-'));
/** Servers still running: stopped whatever happens (an error must not leave them behind). */
const running = new Set();
process.on('exit', () => {
  for (const child of running) for (const p of [...servingProcesses(child.pid), child.pid]) try { process.kill(p, 'SIGTERM'); } catch {}
  fs.rmSync(work, { recursive: true, force: true });
});
const dataDir = path.join(work, 'data');
const ADMIN = { email: 'bench@example.org', password: 'un mot de passe de banc' };

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url, tries = 600) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

/** How a server is started: `node server.js` unless told otherwise (`npm start`: see startCommands). */
const NODE_SERVER = [process.execPath, ['server.js']];

async function startServer(extraEnv, [command, args] = NODE_SERVER) {
  const port = await freePort();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, CONTACT_RATE_LIMIT: '1000', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`);
  // A cluster's other workers start after the first answers: wait until all of them are up.
  const workers = Number(extraEnv.WEB_CONCURRENCY ?? 1);
  const serving = workers > 1 ? workers + 1 : 1;
  for (let i = 0; i < 300 && servingProcesses(child.pid).length < serving; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, workers > 1 ? 2000 : 300));
  return {
    url,
    pid: child.pid,
    // The first server.js process (the server itself, or under npm and its shell) stops the rest:
    // npm exits with it.
    stop: () => new Promise((r) => (process.kill(servingProcesses(child.pid)[0] ?? child.pid, 'SIGTERM'), child.once('exit', r))),
  };
}

/** Every process under `pid` (a cluster's workers). */
function descendants(pid) {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d), ...descendants(Number(d)));
    } catch {}
  }
  return out;
}

/** Resident memory of processes, in KiB. */
function rssOf(pids) {
  let total = 0;
  for (const p of pids) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return total;
}

/** Resident memory of a process and its descendants, in KiB. */
const rss = (pid) => rssOf([pid, ...descendants(pid)]);

/** The processes under (and at) `pid` that serve: running server.js (a cluster's primary and workers), not npm nor its shell. */
function servingProcesses(pid) {
  return [pid, ...descendants(pid)].filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').some((arg) => arg.endsWith('server.js'));
    } catch {
      return false;
    }
  });
}

/** Peak resident memory while a load runs, sampled every 100 ms. */
function sampleMemory(pid) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

function parseWrkDuration(s) {
  const m = /([\d.]+)(us|ms|s)/.exec(s ?? '');
  if (!m) return NaN;
  // Rounded to a microsecond: 817us * 0.001 printed as 0.8170000000000001.
  return Math.round(Number(m[1]) * (m[2] === 'us' ? 1 : m[2] === 's' ? 1e6 : 1000)) / 1000;
}

/** One load: wrk (one thread) when installed, else autocannon; requests per second and latency. */
function load(url, headers, seconds = DURATION, connections = CONNECTIONS) {
  if (WRK) {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
    // Asynchronous, so that the memory sampler keeps running while wrk loads the server.
    return new Promise((resolve, reject) => {
      const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('close', () => {
        const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
        const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
        resolve({
          rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
          p50: parseWrkDuration(/\s50%\s+(\S+)/.exec(out)?.[1]),
          p99: parseWrkDuration(/\s99%\s+(\S+)/.exec(out)?.[1]),
          errors: non2xx + (sockErr ? sockErr.slice(1).reduce((a, n) => a + Number(n), 0) : 0),
        });
      });
    });
  }
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, res) =>
      err ? reject(err) : resolve({ rps: Math.round(res.requests.average), p50: res.latency.p50, p99: res.latency.p99, errors: res.errors + res.non2xx }),
    );
  });
}

const rows = [];
async function measure(name, url, headers, connections = CONNECTIONS) {
  await load(url, headers, Math.min(2, DURATION), connections); // warm-up
  const r = await load(url, headers, DURATION, connections);
  const row = { name, ...r };
  rows.push(row);
  console.log(`${name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`);
  return row;
}

const gzipHeaders = { cookie: 'lng=fr', 'accept-encoding': 'gzip' };
const memory = [];

async function publicPages(label, env) {
  const server = await startServer(env);
  const atRest = rss(server.pid);
  const stop = sampleMemory(server.pid);
  await measure(`home, ${label}`, `${server.url}/`, gzipHeaders);
  await measure(`blog post, ${label}`, `${server.url}/blog/1`, gzipHeaders);
  memory.push({ label, atRest, peak: stop() });
  await server.stop();
}

/** Signs the bench's Admin in and returns the session cookie. */
async function adminCookie(url) {
  const res = await fetch(`${url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams(ADMIN).toString(),
  });
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (res.status !== 303 || !cookie) throw new Error(`bench admin sign-in failed: ${res.status}`);
  return cookie;
}

// First start: migrations, default content and the bench's Admin; 50 contact messages for the admin list.
{
  const server = await startServer({ WEB_CONCURRENCY: '1' });
  for (let i = 0; i < 50; i++) {
    const body = new URLSearchParams({ firstName: 'Banc', lastName: `n° ${i + 1}`, email: `banc${i}@example.org`, message: `Message de banc d'essai numéro ${i + 1}, assez long pour ressembler à un vrai message reçu par la fondation.` });
    const r = await fetch(`${server.url}/contact`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body });
    if (r.status !== 303) throw new Error(`contact message ${i} refused: ${r.status}`);
  }
  await server.stop();
}

await publicPages('cached, 1 worker', { WEB_CONCURRENCY: '1' });
await publicPages('rendered, 1 worker', { WEB_CONCURRENCY: '1', HTML_CACHE: 'off' });
if (CORES > 1) {
  await publicPages(`cached, ${CORES} workers`, { WEB_CONCURRENCY: String(CORES) });
  await publicPages(`rendered, ${CORES} workers`, { WEB_CONCURRENCY: String(CORES), HTML_CACHE: 'off' });
}
// Memory at rest, started both ways: `npm start` keeps npm's process (and its shell) beside the
// server for the whole run; `node server.js` does not (README, "Run it").
const NPM = which('npm');
const startCommands = [];
for (const workers of new Set([1, CORES])) {
  for (const [how, command] of [['npm start', NPM && [NPM, ['start']]], ['node server.js', NODE_SERVER]]) {
    if (!command) {
      console.log('npm is not on the PATH: `npm start` is not measured');
      continue;
    }
    const server = await startServer({ WEB_CONCURRENCY: String(workers) }, command);
    await new Promise((r) => setTimeout(r, 1000));
    const all = [server.pid, ...descendants(server.pid)];
    const serving = servingProcesses(server.pid);
    const row = { label: `${how}, ${workers} worker${workers > 1 ? 's' : ''}`, processes: all.length, serving: rssOf(serving), wrapper: rssOf(all.filter((p) => !serving.includes(p))) };
    startCommands.push(row);
    console.log(`${row.label}: ${row.processes} processes, ${mib(row.serving)} MiB serving + ${mib(row.wrapper)} MiB npm and its shell`);
    await server.stop();
  }
}

{
  const server = await startServer({ WEB_CONCURRENCY: '1' });
  const cookie = await adminCookie(server.url);
  const list = await (await fetch(`${server.url}/admin/messages`, { headers: { cookie } })).text();
  const shown = new Set(list.match(/banc\d+@example\.org/g) ?? []).size;
  if (shown < 20) throw new Error(`the admin list shows ${shown} messages, not a full page of 20`);
  await measure('admin list (20 of 50 messages), 1 worker', `${server.url}/admin/messages`, { cookie, 'accept-encoding': 'gzip' });
  await server.stop();
}

// The appeal day (issue 40): SURGE connections on the home page and on the donate page of a site
// whose card gifts are configured, started as in production (`node server.js`, one worker per
// core). Then one worker's memory once it has served every page of the sitemap (each public page
// in each language) once: what a worker holds in service, not only at rest.
const SURGE = Number(process.env.BENCH_SURGE_CONNECTIONS ?? 200);
const surge = [];
let warmMemory = null;
{
  const server = await startServer({ WEB_CONCURRENCY: String(CORES) });
  const cookie = await adminCookie(server.url);
  const screen = await (await fetch(`${server.url}/admin/payments`, { headers: { cookie } })).text();
  const version = /name="version" value="(\d+)"/.exec(screen)?.[1];
  const form = new URLSearchParams({
    version: version ?? '0',
    'stripe.enabled': 'on',
    'stripe.productsSent': '1',
    'stripe.publishableKey': 'pk_test_bench',
    'secret.stripe.secretKey': 'sk_test_bench',
    'secret.stripe.webhookSecret': 'whsec_bench',
    'stripe.products.0.id': '1',
    'stripe.products.0.name': 'Un repas',
    'stripe.products.0.amount': '20',
    'stripe.products.0.priceId': 'price_bench_20',
    'stripe.products.0.active': 'on',
  });
  const saved = await fetch(`${server.url}/admin/payments`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  const donate = await (await fetch(`${server.url}/faire-un-don`, { headers: gzipHeaders })).text();
  if (saved.status !== 200 || !donate.includes('Un repas')) throw new Error(`card gifts not configured for the surge (${saved.status})`);
  for (const [name, url] of [['home', '/'], ['donate page', '/faire-un-don']]) {
    surge.push(await measure(`${name}, ${SURGE} connections, ${CORES} workers (node server.js)`, `${server.url}${url}`, gzipHeaders, SURGE));
  }
  await server.stop();
}
{
  const server = await startServer({ WEB_CONCURRENCY: '1' });
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname + new URL(m[1]).search);
  for (const page of pages) {
    const r = await fetch(`${server.url}${page}`);
    if (r.status !== 200) throw new Error(`${page} answered ${r.status}`);
    await r.arrayBuffer();
  }
  await new Promise((r) => setTimeout(r, 1000));
  warmMemory = { pages: pages.length, serving: rssOf(servingProcesses(server.pid)) };
  console.log(`one worker after the ${pages.length} pages of the sitemap: ${mib(warmMemory.serving)} MiB`);
  await server.stop();
}

// References: the home page's own bytes, gzip-encoded once.
const homeHtml = await (async () => {
  const server = await startServer({ WEB_CONCURRENCY: '1' });
  const html = await (await fetch(`${server.url}/`, { headers: { cookie: 'lng=fr' } })).text();
  await server.stop();
  return html;
})();
const gz = zlib.gzipSync(homeHtml, { level: 9 });
const site = path.join(work, 'site');
fs.mkdirSync(site);
fs.writeFileSync(path.join(site, 'index.html'), homeHtml);
fs.writeFileSync(path.join(site, 'index.html.gz'), gz);

let nginxRow;
if (NGINX) {
  const port = await freePort();
  const conf = path.join(work, 'nginx.conf');
  // nginx's workers run as an unprivileged user: they must be able to read the page.
  for (const dir of [work, site]) fs.chmodSync(dir, 0o755);
  fs.writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\npid ${work}/nginx.pid;\nerror_log ${work}/nginx-error.log;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  types { text/html html; }\n  client_body_temp_path ${work}/nginx-tmp;\n  proxy_temp_path ${work}/nginx-tmp;\n  fastcgi_temp_path ${work}/nginx-tmp;\n  uwsgi_temp_path ${work}/nginx-tmp;\n  scgi_temp_path ${work}/nginx-tmp;\n  keepalive_requests 1000000;\n  server {\n    listen 127.0.0.1:${port};\n    root ${site};\n    gzip_static on;\n    location / { try_files /index.html =404; }\n  }\n}\n`,
  );
  fs.mkdirSync(path.join(work, 'nginx-tmp'));
  const nginx = spawn(NGINX, ['-c', conf, '-p', work], { stdio: ['ignore', 'ignore', 'inherit'] });
  running.add(nginx);
  const up = await waitFor(`http://127.0.0.1:${port}/`, 50).then(
    () => true,
    () => false,
  );
  if (up) nginxRow = await measure('nginx, 1 worker (same page, gzip)', `http://127.0.0.1:${port}/`, gzipHeaders);
  else console.log(`nginx did not serve the page (${fs.existsSync(path.join(work, 'nginx-error.log')) ? fs.readFileSync(path.join(work, 'nginx-error.log'), 'utf8').trim().split('\n').pop() : 'no error log'}): the Node static server is the only reference`);
  nginx.kill('SIGTERM');
  await new Promise((r) => (nginx.exitCode !== null ? r(null) : nginx.once('exit', r)));
} else {
  console.log('nginx is not installed (apt-get install nginx): the Node static server is the only reference');
}
{
  const port = await freePort();
  const staticServer = spawn(process.execPath, [path.join(root, 'bench', 'static-server.js'), path.join(site, 'index.html'), String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => staticServer.once('message', r));
  await measure('Node static file server (same page, gzip)', `http://127.0.0.1:${port}/`, gzipHeaders);
  staticServer.kill();
}

// The floor of the rendered line's latency: a bare Node server spending the rendered home page's
// time on each request (1 / its req/s), one request per event-loop turn as the app does
// (server/turns.ts), and nothing else. At 50 connections on one saturated core the median is
// 50 times the time per request; what the app adds to the p99 above this line is its own
// (garbage collection, compression, I/O between turns).
const renderedHome = rows.find((r) => r.name === 'home, rendered, 1 worker');
if (renderedHome?.rps) {
  const port = await freePort();
  const ms = 1000 / renderedHome.rps;
  const busy = spawn(process.execPath, [path.join(root, 'bench', 'static-server.js'), path.join(site, 'index.html'), String(port), String(ms)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => busy.once('message', r));
  await measure(`bare Node server spending ${ms.toFixed(2)} ms a request, taking turns (the rendered home's)`, `http://127.0.0.1:${port}/`, gzipHeaders);
  busy.kill();
}

const reference = nginxRow ?? rows.find((r) => r.name.startsWith('Node static'));
const lines = [
  `Bench on ${CORES} cores, ${CONNECTIONS} connections, ${DURATION} s per line (${WRK ? 'wrk, one thread' : 'autocannon'}), ${new Date().toISOString().slice(0, 10)}`,
  '',
  `| what | req/s | p50 ms | p99 ms | errors | vs ${nginxRow ? 'nginx' : 'static'} |`,
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.rps / reference.rps).toFixed(2)} |`),
  '',
  '| server | memory at rest | peak under load |',
  '| --- | ---: | ---: |',
  ...memory.map((m) => `| ${m.label} | ${mib(m.atRest)} MiB | ${mib(m.peak)} MiB |`),
  '',
  '| started with | processes | serving, at rest | npm and its shell, at rest | total |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...startCommands.map((m) => `| ${m.label} | ${m.processes} | ${mib(m.serving)} MiB | ${m.wrapper ? `${mib(m.wrapper)} MiB` : '—'} | ${mib(m.serving + m.wrapper)} MiB |`),
  '',
  `Surge (${SURGE} connections, aim: no error, p99 ≤ 1 s): ${surge.map((r) => `${r.name.split(',')[0]} ${r.errors} errors, p99 ${r.p99} ms`).join('; ')}.`,
  `One worker (node server.js) after serving the ${warmMemory.pages} pages of the sitemap once: ${mib(warmMemory.serving)} MiB resident (aim: ≤ 200 MB).`,
  '',
  `Home page HTML: ${homeHtml.length} bytes (${gz.length} gzip).`,
];
const table = lines.join('\n');
console.log(`\n${table}`);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'latest.md'), `${table}\n`);
fs.rmSync(work, { recursive: true, force: true });
const failed = rows.some((r) => r.rps === 0);
if (failed) console.log('a line served no request');
process.exit(failed ? 1 : 0);
