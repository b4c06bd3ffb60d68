import type { DB } from '~db/index';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { issueErrors } from '~/lib/form-errors';
import { open, seal } from '~/lib/secret-box.server';
import { DEFAULT_PUBLIC_SETTINGS, SECRET_FIELDS, nestFormData, paymentSettingsFormSchema, type PaymentSettingsForm, type PublicPaymentSettings, type SecretField } from './settings';

export const PAYMENT_SETTINGS_KEY = 'payments';
const PURPOSE = 'payment-settings';

/** The settings with their secrets in clear: server-only, never returned by a loader. */
export interface PaymentSettings extends PaymentSettingsForm {
  secrets: Partial<Record<SecretField, string>>;
  version: number;
}

interface StoredDocument extends PaymentSettingsForm {
  /** Each secret sealed (AES-256-GCM) under a key derived from APP_SECRET. */
  secrets: Partial<Record<SecretField, string>>;
}

function defaults(): PaymentSettingsForm {
  const d = DEFAULT_PUBLIC_SETTINGS;
  return {
    stripe: { enabled: false, publishableKey: '', products: [] },
    paypal: { enabled: false, clientId: '', webhookId: '', mode: d.paypal.mode },
    coingate: { enabled: false, mode: d.coingate.mode },
    mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
  };
}

export async function getPaymentSettings(db: DB, appSecret: string): Promise<PaymentSettings> {
  const doc = await readSettingDocument(db, PAYMENT_SETTINGS_KEY);
  if (!doc.version) return { ...defaults(), secrets: {}, version: 0 };
  const stored = (doc.value ?? {}) as Partial<StoredDocument>;
  const parsed = paymentSettingsFormSchema.safeParse(stored);
  const base = parsed.success ? parsed.data : defaults();
  const secrets: Partial<Record<SecretField, string>> = {};
  for (const field of SECRET_FIELDS) {
    const sealed = stored.secrets?.[field];
    if (sealed) secrets[field] = open(appSecret, PURPOSE, sealed);
  }
  return { ...base, secrets, version: doc.version };
}

export function toPublic(s: PaymentSettings): PublicPaymentSettings {
  const set = (f: SecretField) => Boolean(s.secrets[f]);
  return {
    stripe: { ...s.stripe, secretKeySet: set('stripe.secretKey'), webhookSecretSet: set('stripe.webhookSecret') },
    paypal: { ...s.paypal, clientSecretSet: set('paypal.clientSecret') },
    coingate: { ...s.coingate, authTokenSet: set('coingate.authToken') },
    mobileMoney: { ...s.mobileMoney, secretKeySet: set('mobileMoney.secretKey'), secretHashSet: set('mobileMoney.secretHash') },
    giving: s.giving,
  };
}

export type SaveResult = { ok: true; settings: PaymentSettings } | { ok: false; error: 'conflict' };

/**
 * Saves the whole document. A secret is replaced only when a new value is given, removed when
 * listed in `clear`, and kept otherwise. `version` guards against two admins saving over each other.
 */
export async function savePaymentSettings(
  db: DB,
  appSecret: string,
  form: PaymentSettingsForm,
  changes: { set: Partial<Record<SecretField, string>>; clear: SecretField[] },
  version: number,
): Promise<SaveResult> {
  return db.transaction().execute(async (trx) => {
    const current = await readSettingDocument(trx, PAYMENT_SETTINGS_KEY);
    const currentVersion = current.version;
    if (currentVersion !== version) return { ok: false, error: 'conflict' } as const;
    const sealedSecrets: Partial<Record<SecretField, string>> = { ...((current.value ?? {}) as Partial<StoredDocument>).secrets };
    for (const f of changes.clear) delete sealedSecrets[f];
    for (const [f, v] of Object.entries(changes.set) as [SecretField, string][]) if (v) sealedSecrets[f] = seal(appSecret, PURPOSE, v);
    if ((await saveSettingDocument(trx, PAYMENT_SETTINGS_KEY, { ...form, secrets: sealedSecrets } satisfies StoredDocument, version)) !== 'ok') return { ok: false, error: 'conflict' } as const;
    const secrets: Partial<Record<SecretField, string>> = {};
    for (const [f, sealed] of Object.entries(sealedSecrets) as [SecretField, string][]) secrets[f] = open(appSecret, PURPOSE, sealed);
    return { ok: true, settings: { ...form, secrets, version: currentVersion + 1 } } as const;
  });
}

/** The secrets an admin typed (replaced) or ticked to clear; the others are kept. */
export interface SecretChanges {
  set: Partial<Record<SecretField, string>>;
  clear: SecretField[];
}

export type PostedPaymentSettings =
  | { ok: true; form: PaymentSettingsForm; secrets: SecretChanges }
  /** 'fields': the schema refused fields (its first message per field); 'secret': a secret is too long. */
  | { ok: false; refused: 'fields' | 'secret'; errors: Record<string, string> };

/**
 * Reads the admin screen's posted form over the saved settings. A switched-off section's inputs
 * are disabled, so the browser does not send them: what was saved is kept (the products too, unless
 * the Stripe section sent its list). A secret field left empty keeps the saved value; typed, it
 * replaces it (500 characters at most); `clear.{field}` ticked removes it.
 */
export function readPostedPaymentSettings(form: FormData, current: PaymentSettings): PostedPaymentSettings {
  const nested = nestFormData(form) as Record<string, Record<string, unknown> | undefined>;
  const merged = {
    stripe: { ...current.stripe, ...nested.stripe, enabled: nested.stripe?.enabled ?? '', products: nested.stripe?.productsSent ? (nested.stripe?.products ?? []) : current.stripe.products },
    paypal: { ...current.paypal, ...nested.paypal, enabled: nested.paypal?.enabled ?? '' },
    coingate: { ...current.coingate, ...nested.coingate, enabled: nested.coingate?.enabled ?? '' },
    mobileMoney: { ...current.mobileMoney, ...nested.mobileMoney, enabled: nested.mobileMoney?.enabled ?? '' },
    giving: nested.giving ?? current.giving,
  };
  const parsed = paymentSettingsFormSchema.safeParse(merged);
  if (!parsed.success) {
    return { ok: false, refused: 'fields', errors: issueErrors(parsed.error.issues) };
  }
  const set: Partial<Record<SecretField, string>> = {};
  const clear: SecretField[] = [];
  for (const f of SECRET_FIELDS) {
    const v = String(form.get(`secret.${f}`) ?? '').trim();
    if (v.length > 500) return { ok: false, refused: 'secret', errors: { [`secret.${f}`]: '500 caractères au plus.' } };
    if (v) set[f] = v;
    else if (form.get(`clear.${f}`) === 'on') clear.push(f);
  }
  return { ok: true, form: parsed.data, secrets: { set, clear } };
}

/**
 * Saves what readPostedPaymentSettings read (over `version`, see savePaymentSettings) and writes the
 * audit line: the sections enabled, the secrets replaced and cleared (never their values).
 */
export async function updatePaymentSettings(db: DB, appSecret: string, actor: Actor, posted: { form: PaymentSettingsForm; secrets: SecretChanges }, version: number): Promise<SaveResult> {
  const saved = await savePaymentSettings(db, appSecret, posted.form, posted.secrets, version);
  if (!saved.ok) return saved;
  await audit(db, actor, 'payments.update', 'Paramètres de paiement', {
    enabled: Object.entries(posted.form).filter(([, v]) => v && 'enabled' in v && v.enabled).map(([k]) => k),
    secretsReplaced: Object.keys(posted.secrets.set),
    secretsCleared: posted.secrets.clear,
  });
  return saved;
}

/** Active card presets: products with a name, a valid amount and a price id. */
export function activeProducts(s: PaymentSettings) {
  return s.stripe.products.filter((p) => p.active && p.name && p.priceId && p.amount);
}

/** Which methods the donate page shows: enabled and fully configured, server secrets included. */
export function availableMethods(s: PaymentSettings) {
  const mm = s.mobileMoney;
  return {
    card: s.stripe.enabled && Boolean(s.stripe.publishableKey && s.secrets['stripe.secretKey'] && s.secrets['stripe.webhookSecret']) && activeProducts(s).length > 0,
    paypal: s.paypal.enabled && Boolean(s.paypal.clientId && s.secrets['paypal.clientSecret']),
    crypto: s.coingate.enabled && Boolean(s.secrets['coingate.authToken']),
    mobileMoney:
      mm.enabled &&
      (mm.integrationType === 'link' ? Boolean(mm.paymentUrl) : Boolean(mm.publicKey && s.secrets['mobileMoney.secretKey'] && s.secrets['mobileMoney.secretHash'])),
  };
}

/**
 * Whether payments can be taken (ADR 037, the setup checklist): some means on with the keys it
 * needs — in a provider's test mode or live —, and whether one of them takes real money (live
 * keys, live mode, a payment link). Read from the payment settings, never from a click.
 */
export function paymentReadiness(s: PaymentSettingsForm & { secrets: Partial<Record<SecretField, string>> }): { configured: boolean; live: boolean } {
  const key = (f: SecretField) => s.secrets[f] ?? '';
  const means = [
    { on: s.stripe.enabled && Boolean(key('stripe.secretKey')), live: /^(sk|rk)_live_/.test(key('stripe.secretKey')) },
    { on: s.paypal.enabled && Boolean(s.paypal.clientId && key('paypal.clientSecret')), live: s.paypal.mode === 'live' },
    { on: s.coingate.enabled && Boolean(key('coingate.authToken')), live: s.coingate.mode === 'live' },
    s.mobileMoney.integrationType === 'link'
      ? { on: s.mobileMoney.enabled && Boolean(s.mobileMoney.paymentUrl), live: true }
      : { on: s.mobileMoney.enabled && Boolean(key('mobileMoney.secretKey')), live: !/_TEST/i.test(key('mobileMoney.secretKey')) },
  ].filter((m) => m.on);
  return { configured: means.length > 0, live: means.some((m) => m.live) };
}
