// `npm run bench:load`: the appeal day as visitors live it (issue 40). LOAD_VISITORS visitors
// (default 10 000) arrive evenly over LOAD_SECONDS (default 600); each one opens the home page,
// a campaign's page, the donate page for that campaign, then starts a 20 € card gift, which the
// server hands to a local Stripe fake (tests/fakes/stripe.ts) and answers with the redirect to its
// checkout. Prints a progress line every 10 seconds, then errors, p50, p99 and throughput per step.
// The server is started as in production (`node server.js`, one worker per core unless
// WEB_CONCURRENCY says otherwise), on SQLite in a fresh data directory, or on DATABASE_URL. Each
// visitor comes from an address of its own (X-Forwarded-For, TRUST_PROXY=loopback), as a crowd does:
// the donate form's limit per address then counts each visitor apart. A measurement, not a test:
// run it on a quiet machine, with the build made (`npm run build`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '~db/index';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { startFakeStripe } from '../tests/fakes/stripe';
import { campaignInput } from '../tests/support/campaigns';
import { enableStripeCard } from '../tests/support/donations';

const VISITORS = Number(process.env.LOAD_VISITORS ?? 10_000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 600);
const root = path.resolve(import.meta.dirname, '..');
const WHSEC = 'whsec_load';
const SLUG = 'appel-urgence';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-load-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${base}/webhooks/stripe`, prices: { price_20: 2000 } });

function startServer() {
  const child = spawn(process.execPath, ['server.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', STRIPE_API_BASE: stripe.url, TRUST_PROXY: 'loopback', NODE_ENV: 'production' },
  });
  return child;
}

async function ready() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

const stopped = (child: ReturnType<typeof spawn>) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));

// First start: migrations and default content. Then, server stopped, card gifts and a campaign.
let server = startServer();
await ready();
server.kill('SIGTERM');
await stopped(server);
{
  const handle = openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined });
  await migrateToLatest(handle.db);
  const appSecret = process.env.APP_SECRET ?? fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8').trim();
  await enableStripeCard(handle.db, appSecret, { secretKey: 'sk_test_load', webhookSecret: WHSEC });
  const saved = await saveCampaign(handle.db, { id: null, name: 'Banc de charge' }, null, campaignInput(SLUG, { fr: 'Appel d’urgence', en: 'Emergency appeal', es: 'Llamamiento urgente' }));
  if (!('campaign' in saved)) throw new Error('the campaign was not saved');
  await handle.close();
}
server = startServer();
await ready();

type Step = 'home' | 'campaign' | 'donate page' | 'checkout start';
const STEPS: Step[] = ['home', 'campaign', 'donate page', 'checkout start'];
const times = new Map<Step, number[]>(STEPS.map((s) => [s, []]));
const errors = new Map<Step, number>(STEPS.map((s) => [s, 0]));
const firstErrors: string[] = [];
let done = 0;

async function timed(step: Step, call: () => Promise<boolean>): Promise<boolean> {
  const started = performance.now();
  let ok = false;
  try {
    ok = await call();
  } catch (e) {
    if (firstErrors.length < 5) firstErrors.push(`${step}: ${e instanceof Error ? e.message : String(e)}`);
  }
  times.get(step)!.push(performance.now() - started);
  if (!ok) errors.set(step, errors.get(step)! + 1);
  return ok;
}

async function visitor(n: number): Promise<void> {
  const headers = { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, 'accept-encoding': 'gzip', 'accept-language': 'fr' };
  const get = (url: string) => async () => {
    const r = await fetch(`${base}${url}`, { headers });
    await r.arrayBuffer();
    return r.status === 200;
  };
  if (!(await timed('home', get('/')))) return;
  if (!(await timed('campaign', get(`/campagnes/${SLUG}`)))) return;
  if (!(await timed('donate page', get(`/faire-un-don?campagne=${SLUG}`)))) return;
  await timed('checkout start', async () => {
    const body = new URLSearchParams({ intent: 'card', amount: '20', frequency: 'once', campaign: SLUG });
    const r = await fetch(`${base}/faire-un-don?m=card&campagne=${SLUG}`, { method: 'POST', redirect: 'manual', headers: { ...headers, origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body });
    await r.arrayBuffer();
    const to = r.headers.get('location') ?? '';
    if (r.status !== 303 || !to.startsWith(stripe.url)) throw new Error(`answered ${r.status} ${to}`);
    return true;
  });
}

const started = Date.now();
const progress = setInterval(() => {
  const failed = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`${Math.round((Date.now() - started) / 1000)} s: ${done} of ${VISITORS} visitors done, ${failed} errors`);
}, 10_000);
const all: Promise<void>[] = [];
for (let n = 0; n < VISITORS; n++) {
  const at = started + (n * SECONDS * 1000) / VISITORS;
  const wait = at - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  all.push(visitor(n).finally(() => (done += 1)));
}
await Promise.all(all);
clearInterval(progress);
const elapsed = (Date.now() - started) / 1000;

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]);
};
console.log(`\n${VISITORS} visitors over ${SECONDS} s (${elapsed.toFixed(0)} s in all), ${os.availableParallelism()} cores, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}\n`);
console.log('| step | requests | errors | p50 ms | p99 ms | per second |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const s of STEPS) {
  const t = times.get(s)!;
  console.log(`| ${s} | ${t.length} | ${errors.get(s)} | ${pct(t, 50)} | ${pct(t, 99)} | ${(t.length / elapsed).toFixed(1)} |`);
}
for (const e of firstErrors) console.log(`error: ${e}`);
server.kill('SIGTERM');
await stopped(server);
await stripe.close();
fs.rmSync(dataDir, { recursive: true, force: true });
const failed = [...errors.values()].reduce((a, b) => a + b, 0);
process.exit(failed ? 1 : 0);
