import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_SETTINGS, type PaymentSettingsForm } from '~/domain/donations/providers/settings';
import { activeProducts, availableMethods, getPaymentSettings, readPostedPaymentSettings, savePaymentSettings, toPublic, updatePaymentSettings, type PaymentSettings } from '~/domain/donations/providers/settings.server';
import { seal } from '~/lib/secret-box.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const APP_SECRET = 'test-secret-'.padEnd(48, 'p');

const form = (): PaymentSettingsForm => ({
  stripe: { enabled: true, publishableKey: 'pk_test_1', products: [{ id: 'p1', name: '20 €', amount: '20', priceId: 'price_20', active: true }] },
  paypal: { enabled: true, clientId: 'client-1', webhookId: 'wh-1', mode: 'live' },
  coingate: { enabled: true, mode: 'sandbox' },
  mobileMoney: { enabled: true, integrationType: 'api', provider: 'flutterwave', publicKey: 'FLWPUBK-1', currency: 'XOF', paymentUrl: '' },
});
const ALL_SECRETS = {
  'stripe.secretKey': 'sk_test_1',
  'stripe.webhookSecret': 'whsec_1',
  'paypal.clientSecret': 'pp-secret',
  'coingate.authToken': 'cg-token',
  'mobileMoney.secretKey': 'FLWSECK-1',
  'mobileMoney.secretHash': 'hash-1',
} as const;

describeEachDialect('payment settings on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t?.destroy());

  it('before anything is saved: every method off, sandbox modes, no secret — what the admin screen shows by default', async () => {
    const settings = await getPaymentSettings(t.db, APP_SECRET);
    expect(settings.version).toBe(0);
    expect(settings.secrets).toEqual({});
    expect(toPublic(settings)).toEqual(DEFAULT_PUBLIC_SETTINGS);
    expect(DEFAULT_PUBLIC_SETTINGS.paypal.mode).toBe('sandbox');
    expect(DEFAULT_PUBLIC_SETTINGS.coingate.mode).toBe('sandbox');
  });

  it('saves the whole document: the first save is version 1, each next one adds 1, and a stale version is refused', async () => {
    const first = await savePaymentSettings(t.db, APP_SECRET, form(), { set: ALL_SECRETS, clear: [] }, 0);
    expect(first).toEqual({ ok: true, settings: { ...form(), secrets: ALL_SECRETS, version: 1 } });
    expect(await getPaymentSettings(t.db, APP_SECRET)).toEqual({ ...form(), secrets: ALL_SECRETS, version: 1 });
    expect(toPublic(await getPaymentSettings(t.db, APP_SECRET))).toMatchObject({
      stripe: { secretKeySet: true, webhookSecretSet: true },
      paypal: { clientSecretSet: true, mode: 'live' },
      coingate: { authTokenSet: true },
      mobileMoney: { secretKeySet: true, secretHashSet: true },
    });
    expect(await savePaymentSettings(t.db, APP_SECRET, form(), { set: {}, clear: [] }, 0)).toEqual({ ok: false, error: 'conflict' });

    // A new value replaces a secret, an empty one keeps it, a cleared one goes; the rest is kept.
    const changed = { ...form(), coingate: { enabled: false, mode: 'live' as const } };
    const second = await savePaymentSettings(t.db, APP_SECRET, changed, { set: { 'paypal.clientSecret': 'pp-secret-2', 'stripe.secretKey': '' }, clear: ['mobileMoney.secretHash'] }, 1);
    const { 'mobileMoney.secretHash': _cleared, ...kept } = ALL_SECRETS;
    const expected = { ...changed, secrets: { ...kept, 'paypal.clientSecret': 'pp-secret-2' }, version: 2 };
    expect(second).toEqual({ ok: true, settings: expected });
    expect(await getPaymentSettings(t.db, APP_SECRET)).toEqual(expected);
    expect(toPublic(expected).mobileMoney).toMatchObject({ secretKeySet: true, secretHashSet: false });
    expect(await savePaymentSettings(t.db, APP_SECRET, changed, { set: {}, clear: [] }, 1)).toEqual({ ok: false, error: 'conflict' });
    expect((await getPaymentSettings(t.db, APP_SECRET)).version).toBe(2);
  });

  it('reads a stored document the form no longer accepts as the defaults, its secrets still opened', async () => {
    const value = JSON.parse((await t.db.selectFrom('settings').select('value').where('key', '=', 'payments').executeTakeFirstOrThrow()).value);
    await t.db.updateTable('settings').set({ value: JSON.stringify({ ...value, paypal: { mode: 'production' } }) }).where('key', '=', 'payments').execute();
    const read = await getPaymentSettings(t.db, APP_SECRET);
    expect(toPublic(read)).toMatchObject({ stripe: { enabled: false, products: [], secretKeySet: true }, paypal: { enabled: false, mode: 'sandbox', clientSecretSet: true } });
    expect(read.secrets['paypal.clientSecret']).toBe('pp-secret-2');
    expect(read.version).toBe(2);
  });

  it('reads a document saved without secrets, and secrets sealed for payment settings by an earlier version', async () => {
    const row = (value: object) => t.db.updateTable('settings').set({ value: JSON.stringify(value) }).where('key', '=', 'payments').execute();
    await row(form());
    expect((await getPaymentSettings(t.db, APP_SECRET)).secrets).toEqual({});
    await row({ ...form(), secrets: { 'stripe.secretKey': seal(APP_SECRET, 'payment-settings', 'sk_live_ancien') } });
    expect((await getPaymentSettings(t.db, APP_SECRET)).secrets).toEqual({ 'stripe.secretKey': 'sk_live_ancien' });
  });

  it('saves what the screen posted, over its version, with one audit line naming the sections on and never a secret value', async () => {
    const current = await getPaymentSettings(t.db, APP_SECRET);
    const f = new FormData();
    f.append('paypal.enabled', 'on');
    f.append('secret.paypal.clientSecret', 'pp-secret-3');
    f.append('clear.coingate.authToken', 'on');
    const read = readPostedPaymentSettings(f, current);
    if (!read.ok) throw new Error('refused');
    const actor = { id: null, name: 'Test' };
    expect(await updatePaymentSettings(t.db, APP_SECRET, actor, read, current.version - 1)).toEqual({ ok: false, error: 'conflict' });
    const saved = await updatePaymentSettings(t.db, APP_SECRET, actor, read, current.version);
    expect(saved.ok && saved.settings.secrets['paypal.clientSecret']).toBe('pp-secret-3');
    const lines = await t.db.selectFrom('audit_log').select(['details']).where('action', '=', 'payments.update').execute();
    expect(lines.length).toBe(1);
    // The line passes secretsReplaced and secretsCleared too, but the audit log drops every detail whose
    // key says secret (audit.server.ts's scrub), so only the sections on are kept: as before the move.
    expect(JSON.parse(lines[0].details as string)).toEqual({ enabled: ['paypal'] });
    expect(lines[0].details).not.toContain('pp-secret-3');
  });
});

describe('the admin screen\'s posted form, read over the saved settings', () => {
  const saved: PaymentSettings = { ...form(), secrets: ALL_SECRETS, version: 3 };
  const posted = (entries: [string, string][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return f;
  };

  it('keeps what a switched-off section did not send, and the products unless the Stripe section sent its list', () => {
    const r = readPostedPaymentSettings(posted([['paypal.enabled', 'on'], ['paypal.clientId', 'client-2'], ['paypal.webhookId', 'wh-1'], ['paypal.mode', 'sandbox']]), saved);
    expect(r).toEqual({
      ok: true,
      form: { ...form(), stripe: { ...form().stripe, enabled: false }, paypal: { enabled: true, clientId: 'client-2', webhookId: 'wh-1', mode: 'sandbox' }, coingate: { ...form().coingate, enabled: false }, mobileMoney: { ...form().mobileMoney, enabled: false } },
      secrets: { set: {}, clear: [] },
    });
    const sent = readPostedPaymentSettings(posted([['stripe.enabled', 'on'], ['stripe.productsSent', '1'], ['stripe.publishableKey', 'pk_test_1']]), saved);
    expect(sent.ok && sent.form.stripe).toEqual({ enabled: true, publishableKey: 'pk_test_1', products: [] });
  });

  it('replaces a typed secret, clears a ticked one, keeps an empty one; refuses a secret over 500 characters and a field the schema refuses', () => {
    const r = readPostedPaymentSettings(posted([['secret.paypal.clientSecret', '  pp-2  '], ['clear.coingate.authToken', 'on'], ['clear.stripe.secretKey', 'off']]), saved);
    expect(r.ok && r.secrets).toEqual({ set: { 'paypal.clientSecret': 'pp-2' }, clear: ['coingate.authToken'] });
    expect(readPostedPaymentSettings(posted([['secret.stripe.webhookSecret', 'x'.repeat(501)]]), saved)).toEqual({ ok: false, refused: 'secret', errors: { 'secret.stripe.webhookSecret': '500 caractères au plus.' } });
    const bad = readPostedPaymentSettings(posted([['paypal.mode', 'nowhere']]), saved);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.refused).toBe('fields');
    expect(!bad.ok && Object.keys(bad.errors)).toEqual(['paypal.mode']);
  });
});

describe('payment methods offered', () => {
  const settings = (change: (s: PaymentSettings) => void = () => {}): PaymentSettings => {
    const s: PaymentSettings = { ...structuredClone(form()), secrets: { ...ALL_SECRETS }, version: 1 };
    change(s);
    return s;
  };

  it('offers each method only when switched on and fully configured, server secrets included', () => {
    expect(availableMethods(settings())).toEqual({ card: true, paypal: true, crypto: true, mobileMoney: true });
    const off = availableMethods(settings((s) => [s.stripe, s.paypal, s.coingate, s.mobileMoney].forEach((m) => (m.enabled = false))));
    expect(off).toEqual({ card: false, paypal: false, crypto: false, mobileMoney: false });
    const missing = (change: (s: PaymentSettings) => void) => Object.entries(availableMethods(settings(change))).filter(([, on]) => !on).map(([m]) => m);
    expect(missing((s) => (s.stripe.publishableKey = ''))).toEqual(['card']);
    expect(missing((s) => delete s.secrets['stripe.secretKey'])).toEqual(['card']);
    expect(missing((s) => delete s.secrets['stripe.webhookSecret'])).toEqual(['card']);
    expect(missing((s) => (s.stripe.products[0].active = false))).toEqual(['card']);
    expect(missing((s) => (s.paypal.clientId = ''))).toEqual(['paypal']);
    expect(missing((s) => delete s.secrets['paypal.clientSecret'])).toEqual(['paypal']);
    expect(missing((s) => delete s.secrets['coingate.authToken'])).toEqual(['crypto']);
    expect(missing((s) => (s.mobileMoney.publicKey = ''))).toEqual(['mobileMoney']);
    expect(missing((s) => delete s.secrets['mobileMoney.secretKey'])).toEqual(['mobileMoney']);
    expect(missing((s) => delete s.secrets['mobileMoney.secretHash'])).toEqual(['mobileMoney']);
  });

  it('offers a mobile money payment link by its address alone', () => {
    const link = (paymentUrl: string) =>
      availableMethods(settings((s) => {
        s.mobileMoney = { ...s.mobileMoney, integrationType: 'link', publicKey: '', paymentUrl };
        s.secrets = {};
      })).mobileMoney;
    expect(link('https://flutterwave.com/pay/x')).toBe(true);
    expect(link('')).toBe(false);
  });

  it('shows as card presets only the active products with a name, an amount and a price', () => {
    const product = { id: 'p', name: 'Kit', amount: '25', priceId: 'price_25', active: true };
    const s = settings((x) => {
      x.stripe.products = [product, { ...product, id: 'off', active: false }, { ...product, id: 'noname', name: '' }, { ...product, id: 'noprice', priceId: '' }, { ...product, id: 'noamount', amount: '' }];
    });
    expect(activeProducts(s).map((p) => p.id)).toEqual(['p']);
  });
});
