import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttempt, findById } from '~/domain/donations/ledger.server';
import type { DonationDeps } from '~/domain/donations/context.server';
import { subscribe, subscriberNames } from '~/domain/donations/events.server';
import { getPaymentSettings } from '~/domain/donations/providers/settings.server';
import { handleWebhook } from '~/domain/donations/payments.server';
import { receiptContext, receiptsOfDonation } from '~/domain/receipts/register.server';
import { parseEnv } from '~/lib/env.server';
import { registerPaymentSubscribers } from '../../server/payment-subscribers';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { createTestDb, type TestDb } from '../support/db';
import { enableStripeCard } from '../support/donations';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * Which of our files one Stripe `checkout.session.completed` webhook runs (ADR 019, issue 30's
 * measure): measured, not read, with V8's precise coverage (function call counts) around one call
 * of `handleWebhook` — the webhook routes' single call, with the request's deps already read as
 * `donationDeps` reads them (payment settings, receipt context). Counted: files under app/, outside
 * app/lib (logging, i18n, currency arithmetic, the Paris calendar). The subscribers that run after
 * the commit (thank-you mail, campaign pages…) are replaced by no-ops for the measure: they are
 * what follows a payment, registered by the composition root, not its path.
 * The files entered do not depend on the database: SQLite only.
 */
const APP_SECRET = 'webhook-path-secret-0123456789abcdef';
const WHSEC = 'whsec_path';
const ROOT = path.resolve(import.meta.dirname, '../..');
const EXPORT_ACCESSOR = /^\(\) => \{ try \{ return [\w$]+ \} catch \{\} \}$/;

describe('one Stripe webhook’s path through the payment code', () => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  const inspector = new Session();

  beforeAll(async () => {
    t = await createTestDb('sqlite');
    stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused' });
    await enableStripeCard(t.db, APP_SECRET, { secretKey: 'sk_test_path', webhookSecret: WHSEC });
    await setReceiptSettings(t.db);
    deps = { db: t.db, settings: await getPaymentSettings(t.db, APP_SECRET), env: parseEnv({ STRIPE_API_BASE: stripe.url }), publicUrl: 'https://dons.example.org', receipts: await receiptContext(t.db) };
    for (const name of subscriberNames()) subscribe(name, async () => undefined);
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Debugger.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  });
  afterAll(async () => {
    await inspector.post('Profiler.stopPreciseCoverage').catch(() => undefined);
    await inspector.post('Debugger.disable').catch(() => undefined);
    inspector.disconnect();
    registerPaymentSubscribers();
    await stripe?.close();
    await t?.destroy();
  });

  /**
   * Our files (relative to the project) with a function called while `run` ran. The test's module
   * loader reads an imported name through an accessor it adds to the exporting module
   * (`() => { try { return name } catch {} }`): reading a constant is not a call, so those are left out.
   */
  async function filesEntered(run: () => Promise<unknown>): Promise<string[]> {
    await inspector.post('Profiler.takePreciseCoverage'); // resets the counters
    await run();
    const { result } = await inspector.post('Profiler.takePreciseCoverage');
    const entered: string[] = [];
    for (const script of result) {
      const file = path.relative(ROOT, script.url.startsWith('file:') ? new URL(script.url).pathname : script.url);
      if (!file.startsWith('app/') || file.startsWith('app/lib/')) continue;
      const called = script.functions.filter((f) => f.ranges[0].count > 0);
      if (!called.length) continue;
      const { scriptSource } = await inspector.post('Debugger.getScriptSource', { scriptId: script.scriptId });
      if (called.some((f) => !EXPORT_ACCESSOR.test(scriptSource.slice(f.ranges[0].startOffset, f.ranges[0].endOffset)))) entered.push(file);
    }
    return entered.sort();
  }

  async function completedSession(n: number): Promise<{ id: string; payload: string; headers: Headers }> {
    const d = await createAttempt(t.db, { provider: 'stripe', providerRef: `cs_path_${n}`, amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
    const session = { id: d.provider_ref, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', amount_total: 2500, currency: 'eur', payment_intent: `pi_path_${n}`, customer_details: { email: 'awa@example.org', name: 'Awa' } };
    const payload = JSON.stringify({ id: `evt_path_${n}`, object: 'event', type: 'checkout.session.completed', data: { object: session } });
    return { id: d.id, payload, headers: new Headers({ 'stripe-signature': stripe.sign(payload) }) };
  }

  it('confirms a gift and numbers its receipt entering at most 12 of our files, receipts through the register alone', async () => {
    // A first webhook warms every lazy path (first queries, compiled statements) out of the measure.
    const warm = await completedSession(0);
    await handleWebhook(deps, 'stripe', warm.payload, warm.headers);

    const w = await completedSession(1);
    const files = await filesEntered(() => handleWebhook(deps, 'stripe', w.payload, w.headers));

    // What the call did: the gift confirmed, one receipt numbered.
    expect((await findById(t.db, w.id))?.status).toBe('succeeded');
    expect(await receiptsOfDonation(t.db, w.id)).toHaveLength(1);
    // The path: the generic payment code, the provider (and its states in the ledger's words, ADR 029),
    // the ledger, the register (the receipt's "mode de versement" from the means table, its nature: ADR 030,
    // its regime from the donor's details: ADR 035), the audit line, the events.
    expect(files).toEqual([
      'app/domain/audit/audit.server.ts',
      'app/domain/donations/events.server.ts',
      'app/domain/donations/ledger.server.ts',
      'app/domain/donations/payments.server.ts',
      'app/domain/donations/providers/registry.server.ts',
      'app/domain/donations/providers/stripe-states.ts',
      'app/domain/donations/providers/stripe.server.ts',
      'app/domain/means/means.ts',
      'app/domain/receipts/donor-details.ts',
      'app/domain/receipts/nature.ts',
      'app/domain/receipts/regimes.ts',
      'app/domain/receipts/register.server.ts',
    ]);
  });

  it('reads no setting inside the webhook when the request read them: without them, the ledger reads the receipt context itself', async () => {
    const w = await completedSession(2);
    const files = await filesEntered(() => handleWebhook({ ...deps, receipts: undefined }, 'stripe', w.payload, w.headers));
    expect(await receiptsOfDonation(t.db, w.id)).toHaveLength(1);
    expect(files).toEqual(expect.arrayContaining(['app/domain/receipts/settings.server.ts', 'app/domain/settings/site-settings.server.ts']));
  });
});
