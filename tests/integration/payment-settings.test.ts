import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_SETTINGS, type PaymentSettingsForm } from '~/domain/donations/payment-settings';
import { activeProducts, availableMethods, getPaymentSettings, savePaymentSettings, toPublic, type PaymentSettings } from '~/domain/donations/payment-settings.server';
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
