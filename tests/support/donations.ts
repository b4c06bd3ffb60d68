import type { DB, Dialect } from '~db/index';
import { getPaymentSettings, savePaymentSettings } from '~/domain/donations/providers/settings.server';
import type { PaymentSettingsForm, SecretField } from '~/domain/donations/providers/settings';
import type { DonationDeps } from '~/domain/donations/service.server';
import { parseEnv } from '~/lib/env.server';
import { startFakeStripe } from '../fakes/stripe';
import { createTestDb } from './db';

export const PAYPAL_TEST = { clientId: 'AbcClientId', clientSecret: 'pp-secret', webhookId: 'WH-123' };
export const FLUTTERWAVE_TEST = { publicKey: 'FLWPUBK_TEST-1', secretKey: 'FLWSECK_TEST-2', hash: 'my-verif-hash' };

/** Each method as the tests turn it on: card by Stripe with one 20 € preset (`price_20`), PayPal, CoinGate, Flutterwave in XOF. */
const ON: PaymentSettingsForm = {
  stripe: { enabled: true, publishableKey: 'pk_test_card', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
  paypal: { enabled: true, clientId: PAYPAL_TEST.clientId, webhookId: PAYPAL_TEST.webhookId, mode: 'sandbox' },
  coingate: { enabled: true, mode: 'sandbox' },
  mobileMoney: { enabled: true, integrationType: 'api', provider: 'flutterwave', publicKey: FLUTTERWAVE_TEST.publicKey, currency: 'XOF', paymentUrl: '' },
};
const OFF: PaymentSettingsForm = {
  stripe: { enabled: false, publishableKey: '', products: [] },
  paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' },
  coingate: { enabled: false, mode: 'sandbox' },
  mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
};
const PAYPAL_AND_FLUTTERWAVE_SECRETS = { 'paypal.clientSecret': PAYPAL_TEST.clientSecret, 'mobileMoney.secretKey': FLUTTERWAVE_TEST.secretKey, 'mobileMoney.secretHash': FLUTTERWAVE_TEST.hash };

type Provider = 'stripe' | 'paypal' | 'coingate' | 'mobileMoney';

/** Payment settings with exactly the `on` methods enabled and the given secrets sealed under `appSecret`. */
async function enableMethods(db: DB, appSecret: string, on: Provider[], secrets: Partial<Record<SecretField, string>>): Promise<void> {
  const form: PaymentSettingsForm = {
    stripe: on.includes('stripe') ? ON.stripe : OFF.stripe,
    paypal: on.includes('paypal') ? ON.paypal : OFF.paypal,
    coingate: on.includes('coingate') ? ON.coingate : OFF.coingate,
    mobileMoney: on.includes('mobileMoney') ? ON.mobileMoney : OFF.mobileMoney,
  };
  const saved = await savePaymentSettings(db, appSecret, form, { set: secrets, clear: [] }, 0);
  if (!saved.ok) throw new Error('payment settings not saved');
}

/**
 * Payment settings with PayPal and Flutterwave (XOF) on, their secrets sealed under `appSecret`;
 * CoinGate too when its token is given.
 */
export async function enablePayPalAndFlutterwave(db: DB, appSecret: string, coinGateToken?: string): Promise<void> {
  await enableMethods(db, appSecret, coinGateToken ? ['paypal', 'mobileMoney', 'coingate'] : ['paypal', 'mobileMoney'], {
    ...PAYPAL_AND_FLUTTERWAVE_SECRETS,
    ...(coinGateToken ? { 'coingate.authToken': coinGateToken } : {}),
  });
}

/** Card payments by Stripe on, with one 20 € preset (`price_20`) and the given keys sealed under `appSecret`. */
export async function enableStripeCard(db: DB, appSecret: string, keys: { secretKey: string; webhookSecret: string }): Promise<void> {
  await enableMethods(db, appSecret, ['stripe'], { 'stripe.secretKey': keys.secretKey, 'stripe.webhookSecret': keys.webhookSecret });
}

/** Every method on (the donate page with all its tabs), with test secrets (or the given keys) sealed under `appSecret`. */
export async function enableEveryMethod(
  db: DB,
  appSecret: string,
  keys = { stripeSecretKey: 'sk_test_every', stripeWebhookSecret: 'whsec_every', coinGateToken: 'cg-every' },
): Promise<void> {
  await enableMethods(db, appSecret, ['stripe', 'paypal', 'coingate', 'mobileMoney'], {
    ...PAYPAL_AND_FLUTTERWAVE_SECRETS,
    'stripe.secretKey': keys.stripeSecretKey,
    'stripe.webhookSecret': keys.stripeWebhookSecret,
    'coingate.authToken': keys.coinGateToken,
  });
}

/**
 * A test database with card payments on and a Stripe fake answering on a free port: the world of
 * the donor space's tests. `close()` stops the fake and deletes the database.
 */
export async function stripeCardWorld(dialect: Dialect, keys: { appSecret: string; secretKey: string; webhookSecret: string }) {
  const t = await createTestDb(dialect);
  const stripe = await startFakeStripe({ port: 0, webhookSecret: keys.webhookSecret, webhookUrl: () => 'http://127.0.0.1:1/unused' });
  await enableStripeCard(t.db, keys.appSecret, { secretKey: keys.secretKey, webhookSecret: keys.webhookSecret });
  const deps: DonationDeps = { db: t.db, settings: await getPaymentSettings(t.db, keys.appSecret), env: parseEnv({ STRIPE_API_BASE: stripe.url }), publicUrl: 'https://dons.example.org' };
  return {
    t,
    stripe,
    deps,
    close: async () => {
      await stripe.close();
      await t.destroy();
    },
  };
}
