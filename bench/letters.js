// `npm run bench:letters` (not in `npm run bench` nor in CI: it takes minutes by design): a letter
// to 10 000 subscribers through a local SMTP sink at 50 messages a second, from the web process
// itself (one worker: it serves and sends), and whether
//  - the send keeps the set rate (within ±10 %), measured by the sink from first to last mail;
//  - the web process's resident memory stays under its budget (BENCH_LETTERS_BUDGET_MIB, 300 by
//    default: docs/benchmarks.md's 512 MB machine runs one process, measured at ~220–260 MiB under load);
//  - the home page, rendered on every request (HTML_CACHE=off), keeps at least 80 % of its
//    throughput during the send.
// BENCH_LETTERS (recipients), BENCH_LETTERS_RATE (per second) and BENCH_SECONDS (each load) scale
// it down for a quick look. Prints a table and writes bench/results/letters.md.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECIPIENTS = Number(process.env.BENCH_LETTERS ?? 10_000);
const RATE = Number(process.env.BENCH_LETTERS_RATE ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BUDGET_MIB = Number(process.env.BENCH_LETTERS_BUDGET_MIB ?? 300);

if (!process.env.BENCH_SKIP_BUILD) {
  const b = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-bench-letters-'));
const dataDir = path.join(work, 'data');
let server;
process.on('exit', () => {
  if (server) try { process.kill(server.pid, 'SIGKILL'); } catch {}
  fs.rmSync(work, { recursive: true, force: true });
});

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The sink: counts mails and when each arrived, keeps none. */
const received = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, done) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received.push(performance.now());
      done();
    });
  },
});
const smtpPort = await freePort();
await new Promise((r) => sink.listen(smtpPort, '127.0.0.1', r));

/** Resident memory of the server process, in MiB. */
const rssMib = (pid) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
server = spawn(process.execPath, ['server.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error', WEB_CONCURRENCY: '1', HTML_CACHE: 'off', PUBLIC_URL: url, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'Fondation THV <lettres@example.org>' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}/readyz`)).ok) break;
  } catch {}
  if (i > 600) throw new Error('the server did not start');
  await sleep(100);
}

/** The audience and the letter, written as the app writes them (the queue as `enqueue` fills it). */
const db = new Database(path.join(dataDir, 'site.sqlite'));
db.pragma('busy_timeout = 5000');
const at = new Date().toISOString();
const letterId = randomUUID();
db.transaction(() => {
  const sub = db.prepare("INSERT INTO subscribers (id, email, language, source, status, suppressed_reason, soft_bounces, created_at, updated_at) VALUES (?, ?, ?, 'signup', 'subscribed', NULL, 0, ?, ?)");
  const queue = db.prepare("INSERT INTO letter_queue (id, letter_id, subscriber_id, status) VALUES (?, ?, ?, 'queued')");
  const langs = ['fr', 'en', 'es'];
  db.prepare(
    "INSERT INTO letters (id, versions, post_id, audience_language, audience_source, status, version, scheduled_at, pause_reason, created_by, created_at, updated_at, sent_at) VALUES (?, ?, NULL, '', '', 'draft', 1, NULL, NULL, 'bench', ?, ?, NULL)",
  ).run(letterId, JSON.stringify({ fr: { subject: 'Nouvelles de Thiès', body: 'Bonjour,\n\nLa rentrée s’est bien passée.\n\nMerci de votre soutien.', link: '/blog/1', image: '' }, en: { subject: 'News from Thiès', body: 'Hello,\n\nThe school year started well.', link: '/blog/1', image: '' } }), at, at);
  for (let i = 0; i < RECIPIENTS; i++) {
    const id = randomUUID();
    sub.run(id, `reader${i}@bench.example.org`, langs[i % 3], at, at);
    queue.run(`${letterId}:${id}`, letterId, id);
  }
  const rate = JSON.stringify({ perSecond: RATE, perHour: 1_000_000 });
  db.prepare("INSERT INTO settings (key, value, version, updated_at) VALUES ('letters.rate', ?, 1, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(rate, at);
})();

function load(seconds) {
  return new Promise((resolve, reject) =>
    autocannon({ url: `${url}/`, connections: CONNECTIONS, duration: seconds, headers: { cookie: 'lng=fr', 'accept-encoding': 'gzip' } }, (err, res) => (err ? reject(err) : resolve({ rps: Math.round(res.requests.average), p99: res.latency.p99, errors: res.errors + res.non2xx }))),
  );
}

await load(2); // warm-up
const before = await load(DURATION);
console.log(`home page before the send: ${before.rps} req/s, p99 ${before.p99} ms`);

let peak = rssMib(server.pid);
const sampler = setInterval(() => (peak = Math.max(peak, rssMib(server.pid))), 200);
const started = performance.now();
db.prepare("UPDATE letters SET status = 'sending' WHERE id = ?").run(letterId);
while (received.length < Math.min(RATE * 2, RECIPIENTS)) await sleep(50);
const during = await load(DURATION);
const sentDuringLoad = received.length;
console.log(`home page during the send: ${during.rps} req/s, p99 ${during.p99} ms`);
const deadline = started + (RECIPIENTS / RATE) * 2000 + 60_000;
while (received.length < RECIPIENTS && performance.now() < deadline) {
  await sleep(500);
  if (received.length % (RATE * 20) < RATE / 2) process.stdout.write(`\r${received.length} / ${RECIPIENTS} sent`);
}
clearInterval(sampler);
process.stdout.write('\n');
for (let i = 0; i < 100 && db.prepare('SELECT status FROM letters WHERE id = ?').get(letterId).status !== 'sent'; i++) await sleep(100);
const counts = Object.fromEntries(db.prepare('SELECT status, count(*) AS n FROM letter_queue WHERE letter_id = ? GROUP BY status').all(letterId).map((r) => [r.status, r.n]));
const letterState = db.prepare('SELECT status FROM letters WHERE id = ?').get(letterId).status;
db.close();

const seconds = (received.at(-1) - received[0]) / 1000;
const rate = (received.length - 1) / seconds;
const kept = during.rps / before.rps;
const checks = [
  ['every recipient got one mail', received.length === RECIPIENTS && counts.sent === RECIPIENTS, `${received.length} received, queue ${JSON.stringify(counts)}, letter ${letterState}`],
  [`rate ${RATE}/s ±10 %`, Math.abs(rate - RATE) <= RATE * 0.1, `${rate.toFixed(1)} messages/s over ${seconds.toFixed(1)} s`],
  [`memory under ${BUDGET_MIB} MiB`, peak <= BUDGET_MIB, `peak ${peak} MiB (one process: web and sending)`],
  ['home page keeps ≥ 80 % of its throughput', kept >= 0.8, `${before.rps} → ${during.rps} req/s (${Math.round(kept * 100)} %), p99 ${before.p99} → ${during.p99} ms, ${sentDuringLoad} mails sent by the end of that load`],
];
const table = [
  `Letters benchmark, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), Node ${process.version}: ${RECIPIENTS} recipients at ${RATE}/s, loads of ${DURATION} s with ${CONNECTIONS} connections.`,
  '',
  '| check | result | measured |',
  '| --- | --- | --- |',
  ...checks.map(([name, ok, detail]) => `| ${name} | ${ok ? 'yes' : 'NO'} | ${detail} |`),
].join('\n');
console.log(`\n${table}`);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results', 'letters.md'), `${table}\n`);
sink.close();
server.kill('SIGTERM');
process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
