import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { importsDone } from '~/domain/dashboard/setup.server';
import { getPaymentSettings, savePaymentSettings } from '~/domain/donations/providers/settings.server';
import type { PaymentSettingsForm } from '~/domain/donations/providers/settings';
import { recordDnsCheck } from '~/domain/letters/dns-passed.server';
import { saveSender } from '~/domain/letters/sender.server';
import { createType } from '~/domain/membership/types.server';
import { getEditableSiteSettings, saveSiteSettings } from '~/domain/settings/site-settings.server';
import { runtime } from '~/lib/runtime.server';
import { action, loader } from '~/routes/admin/dashboard';
import { describeEachDialect } from '../support/db';
import { membershipType } from '../support/membership';
import { setReceiptSettings } from '../support/receipts';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

/**
 * The dashboard's setup checklist (issue 43, ADR 037): Admins only, each step ticked by what the
 * settings say — never by a click —, the list gone once every step is done, or hidden by an Admin
 * (audited).
 */
const ACTOR = { id: null, name: 'test' };
const OFF: PaymentSettingsForm = {
  stripe: { enabled: false, publishableKey: '', products: [] },
  paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' },
  coingate: { enabled: false, mode: 'sandbox' },
  mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
};
const OK = (name: 'SPF' | 'DKIM' | 'DMARC') => ({ name, host: 'x', status: 'ok' as const, message: '' });

describeEachDialect('the setup checklist on %s', (dialect) => {
  let stop: () => Promise<void>;
  let admin: string;
  let editor: string;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    ({ stop } = await startTestRuntime(dialect, 'setup-checklist-secret-'.padEnd(48, 's')));
    admin = await sessionCookie(runtime().db, { id: 'a-setup', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(runtime().db, { id: 'e-setup', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
  });
  afterAll(async () => {
    await stop?.();
    vi.unstubAllEnvs();
  });
  const db = () => runtime().db;
  const dashboard = async (cookie = admin) => answer(await loader({ request: new Request('http://localhost/admin/dashboard', { headers: { cookie } }), context: routeContext(), params: {} } as never)).body;
  const ticks = async () => {
    const setup = (await dashboard()).setup as { key: string; done: boolean; href: string }[] | null;
    return setup && Object.fromEntries(setup.map((s) => [s.key, s.done]));
  };
  async function payments(form: Partial<PaymentSettingsForm>, secrets: Record<string, string>) {
    const current = await getPaymentSettings(db(), runtime().secret);
    const saved = await savePaymentSettings(db(), runtime().secret, { ...OFF, ...form }, { set: secrets, clear: [] }, current.version);
    expect(saved.ok).toBe(true);
  }

  it('ticks each step from the settings as saved, and is gone once all are done', async () => {
    expect(await importsDone(db())).toBe(false);
    expect(await ticks()).toEqual({ identity: false, receipts: false, paymentsTest: false, paymentsLive: false, membership: false, sender: false, dns: false, import: false });
    expect(((await dashboard()).setup as { href: string }[]).map((s) => s.href)).toEqual(['/admin/settings', '/admin/receipts/parametres', '/admin/payments', '/admin/payments', '/admin/adhesions/parametres', '/admin/lettres/expediteur', '/admin/lettres/dns', '/admin/imports']);
    // The demonstration's contact details written at the first start are not the organisation's.
    expect((await getEditableSiteSettings(db())).settings.contactEmail).toBe('contact@fondation-thv.org');
    // An Éditeur never sees it.
    expect((await dashboard(editor)).setup).toBeNull();

    const site = await getEditableSiteSettings(db());
    expect(await saveSiteSettings(db(), ACTOR, { ...site.settings, address: '1 rue de la Paix, Paris', contactEmail: 'contact@fondation.example.org' }, site.version)).toBe('ok');
    // Receipts filled in but not switched on: not done; switched on: done.
    await setReceiptSettings(db(), { enabled: false });
    expect(await ticks()).toMatchObject({ identity: true, receipts: false });
    await setReceiptSettings(db());
    // A card provider with a test key: the test step only.
    await payments({ stripe: { enabled: true, publishableKey: 'pk_test_x', products: [] } }, { 'stripe.secretKey': 'sk_test_x', 'stripe.webhookSecret': 'whsec_x' });
    expect(await ticks()).toMatchObject({ receipts: true, paymentsTest: true, paymentsLive: false });
    // PayPal in sandbox with its secret: still test; a live key: done.
    await payments({ paypal: { enabled: true, clientId: 'id', webhookId: 'wh', mode: 'sandbox' } }, { 'paypal.clientSecret': 'pp' });
    expect(await ticks()).toMatchObject({ paymentsLive: false });
    await payments({ stripe: { enabled: true, publishableKey: 'pk_live_x', products: [] } }, { 'stripe.secretKey': 'sk_live_x' });
    expect(await ticks()).toMatchObject({ paymentsTest: true, paymentsLive: true });

    await createType(db(), ACTOR, membershipType());
    expect(await saveSender(db(), ACTOR, { name: 'Fondation', email: 'lettres@Fondation.example.org', unsubscribeMailbox: '' }, 0)).toBe('ok');
    // A check of another domain, or one that found something to fix, does not tick the DNS step.
    await recordDnsCheck(db(), 'other.example.org', 's1', [OK('SPF'), OK('DKIM'), OK('DMARC')]);
    await recordDnsCheck(db(), 'fondation.example.org', 's1', [OK('SPF'), { ...OK('DKIM'), status: 'missing' }, OK('DMARC')]);
    expect(await ticks()).toMatchObject({ membership: true, sender: true, dns: false });
    await recordDnsCheck(db(), 'fondation.example.org', 's1', [OK('SPF'), OK('DKIM'), OK('DMARC')]);

    // The import (ADR 036): ticked by an import carried to its end, not by one still running or undone.
    const started = { id: 'i1', file_name: 'paiements.csv', file_key: 'imports/i1.csv', file_size: 10, source: 'helloasso', mapping: '{}', status: 'running', total_lines: 1, cursor: 0, imported_count: 0, created_by: 'a-setup', created_at: new Date().toISOString() };
    await db().insertInto('imports').values(started).execute();
    expect(await ticks()).toEqual({ identity: true, receipts: true, paymentsTest: true, paymentsLive: true, membership: true, sender: true, dns: true, import: false });
    await db().updateTable('imports').set({ status: 'undone' }).where('id', '=', 'i1').execute();
    expect(await importsDone(db())).toBe(false);
    await db().updateTable('imports').set({ status: 'done' }).where('id', '=', 'i1').execute();
    expect(await ticks()).toBeNull();
    await db().deleteFrom('imports').execute();
  });

  it('an Admin may hide it before it is done, audited; an Éditeur may not', async () => {
    expect(await ticks()).toMatchObject({ import: false });
    const post = (cookie: string) =>
      action({ request: new Request('http://localhost/admin/dashboard', { method: 'POST', headers: { cookie, origin: 'http://localhost' }, body: new URLSearchParams({ intent: 'dismissSetup' }) }), context: routeContext(), params: {} } as never);
    await expect(post(editor)).rejects.toMatchObject({ init: { status: 403 } });
    expect(await ticks()).not.toBeNull();
    expect(answer(await post(admin)).body).toEqual({ error: null });
    expect(await ticks()).toBeNull();
    const logged = await db().selectFrom('audit_log').select(['user_id', 'details']).where('action', '=', 'dashboard.setup_dismissed').execute();
    expect(logged.map((l) => ({ ...l, details: JSON.parse(l.details) }))).toEqual([{ user_id: 'a-setup', details: { stepsLeft: 1 } }]);
  });
});
