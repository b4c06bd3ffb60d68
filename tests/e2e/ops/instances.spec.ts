import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openDatabase, type DbHandle } from '~db/index';
import { savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { PASSWORD, createAccount, createPgDatabase, freePort, signInRequest, skipUnlessAvailable } from '../admin/server';

/**
 * Two servers on one PostgreSQL database and one data directory behave as one site: sessions,
 * content freshness, rate limits and webhooks: every instance shares them through the database.
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..');
const APP_SECRET = 'two-instances-secret-'.padEnd(48, 'x');
const WHSEC = 'whsec_two_instances';
const FAKE_PORT = Number(process.env.E2E_INSTANCES_FAKE_PORT ?? 3684);

interface Instance {
  url: string;
  child: ChildProcess;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', WEB_CONCURRENCY: '1', LOG_LEVEL: 'error', SMTP_URL: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('instance did not start');
}

for (const dialect of ['postgres'] as const) {
  test.describe(`two instances on one ${dialect} database`, () => {
    skipUnlessAvailable(dialect);
    test.describe.configure({ mode: 'serial' });
    let a: Instance;
    let b: Instance;
    let db: DbHandle;
    let stripe: FakeStripe;
    let dropDatabase: () => Promise<void>;
    let dataDir: string;

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      const database = await createPgDatabase();
      dropDatabase = database.drop;
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-two-'));
      stripe = await startFakeStripe({ port: FAKE_PORT, webhookSecret: WHSEC, webhookUrl: () => `${a.url}/webhooks/stripe`, prices: { price_20: 2000 } });
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, APP_SECRET, STRIPE_API_BASE: stripe.url };
      a = await startInstance(env);
      b = await startInstance(env);
      db = openDatabase({ databaseUrl: database.url, dataDir });
      await createAccount(db.db, 'Admin', 'alice@example.org');
      const form = {
        stripe: { enabled: true, publishableKey: 'pk_test_two', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
        paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' as const },
        coingate: { enabled: false, mode: 'sandbox' as const },
        mobileMoney: { enabled: false, integrationType: 'api' as const, provider: 'flutterwave' as const, publicKey: '', currency: 'XOF' as const, paymentUrl: '' },
      };
      const saved = await savePaymentSettings(db.db, APP_SECRET, form, { set: { 'stripe.secretKey': 'sk_test_two', 'stripe.webhookSecret': WHSEC }, clear: [] }, 0);
      if (!saved.ok) throw new Error('payment settings not saved');
    });
    test.afterAll(async () => {
      for (const i of [a, b]) i?.child.kill('SIGTERM');
      await Promise.all([a, b].map((i) => i && new Promise((r) => (i.child.exitCode !== null ? r(null) : i.child.once('exit', r)))));
      await db?.close();
      await stripe?.close();
      await dropDatabase?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('a session made on one instance works on the other', async ({ request }) => {
      await signInRequest(request, a.url, 'alice@example.org', PASSWORD);
      const dashboard = await request.get(`${b.url}/admin/dashboard`, { maxRedirects: 0 });
      expect(dashboard.status()).toBe(200);
      expect(await dashboard.text()).toMatch(/Bonjour, (<!-- -->)?Alice Admin/);
    });

    test('content saved on one instance is served fresh by the other at once', async ({ request }) => {
      await request.get(`${b.url}/partenaires`);
      const cached = await request.get(`${b.url}/partenaires`);
      expect(cached.headers()['x-cache']).toBe('HIT');
      await signInRequest(request, a.url, 'alice@example.org', PASSWORD);
      const created = await request.post(`${a.url}/admin/partners/new`, {
        form: { name: 'Partenaire des deux instances', logoUrl: 'https://example.org/logo.png', website: 'https://example.org/deux' },
        headers: { Origin: a.url },
        maxRedirects: 0,
      });
      expect(created.status()).toBeLessThan(400);
      await expect
        .poll(async () => (await (await fetch(`${b.url}/partenaires`)).text()).includes('Partenaire des deux instances'), { timeout: 3000 })
        .toBe(true);
    });

    test('failed sign-ins are counted across both instances', async () => {
      const attempt = (url: string) =>
        fetch(`${url}/admin/login`, { method: 'POST', headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'email=mallory%40example.org&password=pas+le+bon+mot', redirect: 'manual' });
      const statuses = [];
      for (const url of [a.url, b.url, a.url, b.url, a.url]) statuses.push((await attempt(url)).status);
      expect(statuses.every((s) => s !== 429)).toBe(true);
      expect((await attempt(b.url)).status).toBe(429);
      expect((await attempt(a.url)).status).toBe(429);
    });

    test('a webhook delivered to both instances, many times, makes one donation and one receipt', async ({ page }) => {
      await page.goto(`${a.url}/faire-un-don`);
      await page.getByLabel(/Un repas/).check();
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      const session = [...stripe.sessions.values()].at(-1)!;
      const { payload, header } = stripe.complete(session.id);
      const deliveries = [a.url, b.url, a.url, b.url, a.url, b.url].map((url) =>
        fetch(`${url}/webhooks/stripe`, { method: 'POST', body: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } }).then((r) => r.status),
      );
      expect(await Promise.all(deliveries)).toEqual([200, 200, 200, 200, 200, 200]);
      const rows = await db.db.selectFrom('donations').selectAll().where('provider_ref', '=', session.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('succeeded');
      const receipts = await db.db.selectFrom('mail_outbox').select('id').where('subject', '=', 'Reçu de votre don à la Fondation THV').execute();
      expect(receipts).toHaveLength(1);
    });
  });
}
