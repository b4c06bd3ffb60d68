import { z } from 'zod';
import { MOBILE_MONEY_CURRENCIES } from '../money';

/**
 * Payment settings as the admin screen sees them (shared with the browser). Secrets never appear
 * here: each is only a "set" flag; the server keeps the values encrypted (settings.server.ts).
 */
export interface DonationProduct {
  id: string;
  name: string;
  /** As typed, in euros. */
  amount: string;
  priceId: string;
  active: boolean;
}

export interface PublicPaymentSettings {
  stripe: { enabled: boolean; publishableKey: string; products: DonationProduct[]; secretKeySet: boolean; webhookSecretSet: boolean };
  paypal: { enabled: boolean; clientId: string; webhookId: string; mode: 'sandbox' | 'live'; clientSecretSet: boolean };
  coingate: { enabled: boolean; mode: 'sandbox' | 'live'; authTokenSet: boolean };
  mobileMoney: {
    enabled: boolean;
    integrationType: 'api' | 'link';
    provider: 'flutterwave';
    publicKey: string;
    currency: (typeof MOBILE_MONEY_CURRENCIES)[number];
    paymentUrl: string;
    secretKeySet: boolean;
    secretHashSet: boolean;
  };
  giving?: GivingSettings;
}

/** The secret fields: written from the form only when a new value is typed. */
export const SECRET_FIELDS = ['stripe.secretKey', 'stripe.webhookSecret', 'paypal.clientSecret', 'coingate.authToken', 'mobileMoney.secretKey', 'mobileMoney.secretHash'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

const text = (max: number) => z.string().trim().max(max, `${max} caractères au plus.`);
const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());
const amount = z
  .string()
  .trim()
  .refine((v) => v === '' || (/^\d{1,6}([.,]\d{1,2})?$/.test(v) && Number(v.replace(',', '.')) > 0 && Number(v.replace(',', '.')) <= 100000), {
    message: 'Montant invalide : un nombre positif en euros, 2 décimales au plus, 100 000 € au plus.',
  });
const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'Adresse invalide : elle doit commencer par https://.' });

// ——— campaigns (#16): the donate form's fee option and Stripe Checkout's payment method types ———
/** Checkout payment method types an Admin may offer (wallets such as Apple Pay and Google Pay come with 'card'). */
export const STRIPE_METHOD_TYPES = ['card', 'sepa_debit', 'bancontact', 'ideal'] as const;
export const STRIPE_METHOD_LABELS: Record<(typeof STRIPE_METHOD_TYPES)[number], string> = {
  card: 'Carte bancaire (et Apple Pay / Google Pay si activés dans Stripe)',
  sepa_debit: 'Prélèvement SEPA',
  bancontact: 'Bancontact',
  ideal: 'iDEAL',
};
const givingSchema = z.object({
  /** Percentage the donor may add to cover processing fees; empty: the option is not offered. */
  feePercent: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || (/^\d{1,2}([.,]\d{1,2})?$/.test(v) && Number(v.replace(',', '.')) > 0 && Number(v.replace(',', '.')) <= 10), {
      message: 'Pourcentage invalide : un nombre entre 0,01 et 10, 2 décimales au plus.',
    }),
  /** Empty: Stripe chooses from what the account enables (dynamic payment methods). */
  stripeMethodTypes: z.preprocess((v) => (Array.isArray(v) ? v.filter(Boolean) : []), z.array(z.enum(STRIPE_METHOD_TYPES))).default([]),
});
export type GivingSettings = z.infer<typeof givingSchema>;

/** What the form posts (secrets are optional: empty means "keep the saved one"). */
export const paymentSettingsFormSchema = z.object({
  stripe: z.object({
    enabled: checkbox,
    publishableKey: text(300),
    products: z
      .array(z.object({ id: text(40), name: text(120), amount, priceId: text(200), active: checkbox }))
      .max(50, '50 produits au plus.'),
  }),
  paypal: z.object({ enabled: checkbox, clientId: text(300), webhookId: text(200), mode: z.enum(['sandbox', 'live']) }),
  coingate: z.object({ enabled: checkbox, mode: z.enum(['sandbox', 'live']) }),
  mobileMoney: z.object({
    enabled: checkbox,
    integrationType: z.enum(['api', 'link']),
    provider: z.literal('flutterwave'),
    publicKey: text(300),
    currency: z.enum(MOBILE_MONEY_CURRENCIES),
    paymentUrl: optionalUrl,
  }),
  giving: givingSchema.optional(),
});
export type PaymentSettingsForm = z.infer<typeof paymentSettingsFormSchema>;

export const DEFAULT_PUBLIC_SETTINGS: PublicPaymentSettings = {
  stripe: { enabled: false, publishableKey: '', products: [], secretKeySet: false, webhookSecretSet: false },
  paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox', clientSecretSet: false },
  coingate: { enabled: false, mode: 'sandbox', authTokenSet: false },
  mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '', secretKeySet: false, secretHashSet: false },
};

export const PAYMENT_SETTINGS_SAVED = { title: 'Paramètres de paiement sauvegardés !', description: 'Vos modifications ont été enregistrées avec succès.', variant: 'success' as const };

/** Turns `stripe.products.0.name`-style form fields into the nested object the schema reads. */
export function nestFormData(form: FormData): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, raw] of form.entries()) {
    if (typeof raw !== 'string') continue;
    const parts = key.split('.');
    if (parts.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) continue;
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = raw;
      else node = (node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {}) as Record<string, unknown>;
    });
  }
  const stripe = root.stripe as Record<string, unknown> | undefined;
  if (stripe) stripe.products = Array.isArray(stripe.products) ? stripe.products.filter(Boolean) : [];
  return root;
}
