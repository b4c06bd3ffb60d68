// A gift through compose (tests/container/run.sh): the app container behind Caddy (HTTPS from
// Caddy's own CA for localhost), on the compose PostgreSQL, pays through the local Stripe fake.
// Passes when the donation is recorded as succeeded in PostgreSQL.
//   tsx tests/container/gift.ts   (settings in the environment, below)
// SITE: the site's origin through Caddy; DATABASE_URL: the compose database (a published port);
// APP_SECRET: the app's; RELAY_PORT: a port on every address relaying to the fake (on a free
// port of 127.0.0.1), which the app reaches as host.containers.internal (STRIPE_API_BASE).
// Node's fetch trusts Caddy's root through NODE_EXTRA_CA_CERTS, set by run.sh.
import net from 'node:net';
import { chromium } from '@playwright/test';
import { openDatabase } from '~db/index';
import { enableStripeCard } from '../support/donations';
import { startFakeStripe } from '../fakes/stripe';

const need = (name: string) => process.env[name] ?? (console.error(`gift: ${name} is not set`), process.exit(2));
const site = need('SITE');
const appSecret = need('APP_SECRET');
const WHSEC = 'whsec_container_check';

const stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${site}/webhooks/stripe`, prices: { price_20: 2000 } });
const relay = net.createServer((inbound) => {
  const outbound = net.connect(Number(new URL(stripe.url).port), '127.0.0.1');
  inbound.pipe(outbound).pipe(inbound);
  inbound.on('error', () => outbound.destroy());
  outbound.on('error', () => inbound.destroy());
});
await new Promise<void>((resolve) => relay.listen(Number(need('RELAY_PORT')), '0.0.0.0', resolve));
const handle = openDatabase({ databaseUrl: need('DATABASE_URL'), dataDir: '/nonexistent' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
let failed = false;
try {
  await enableStripeCard(handle.db, appSecret, { secretKey: 'sk_test_container', webhookSecret: WHSEC });
  const page = await browser.newPage({ ignoreHTTPSErrors: true, locale: 'fr-FR' });
  await page.goto(`${site}/faire-un-don`);
  await page.getByLabel(/Un repas/).check();
  // The card form makes the app open a Checkout Session with the fake (through the relay) and send
  // the donor there; the browser's visit to the fake's own page proves nothing about the app.
  await page.getByRole('button', { name: 'Donner par carte' }).click();
  let session: any;
  for (let i = 0; i < 150 && !session; i++) {
    session = [...stripe.sessions.values()].at(-1);
    if (!session) await new Promise((r) => setTimeout(r, 100));
  }
  if (!session) throw new Error(`the app opened no Checkout Session; the page is at ${page.url()}`);
  const { payload, header } = stripe.complete(session.id);
  const answer = await fetch(`${site}/webhooks/stripe`, { method: 'POST', body: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } });
  if (answer.status !== 200) throw new Error(`the webhook was answered ${answer.status}`);
  const rows = await handle.db.selectFrom('donations').select(['status', 'amount_minor', 'currency']).where('provider_ref', '=', session.id).execute();
  if (rows.length !== 1 || rows[0].status !== 'succeeded') throw new Error(`donation rows for ${session.id}: ${JSON.stringify(rows)}`);
  console.log(`gift: donation ${session.id} recorded in PostgreSQL: ${JSON.stringify(rows[0])}; ${stripe.requests.length} request(s) from the app reached the fake through the relay`);
} catch (e) {
  failed = true;
  console.error(`gift: FAIL: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  await browser.close();
  await handle.close();
  await stripe.close();
  relay.close();
}
process.exit(failed ? 1 : 0);
