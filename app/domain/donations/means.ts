import type { MessageKey } from '~/lib/i18n';
import { PROVIDERS, type PaymentMeans, type ProviderName } from './status';

/**
 * The means of payment, in one table (issue 39): every form, list, report, CSV, the donor and member
 * spaces and the dues history read their words here. A means is what the payer chose (card, PayPal,
 * crypto, mobile money, a payment link, or money handed to the foundation); the ledger's `provider`
 * column keeps who took it (a provider's name, or the offline means itself). Shared with the
 * browser: no server imports.
 */
export const MEANS = ['card', 'paypal', 'crypto', 'mobileMoney', 'mobileLink', 'cash', 'cheque', 'transfer'] as const;
export type Means = (typeof MEANS)[number];

interface MeansWords {
  /** The ledger's `provider` value for a payment by this means. */
  stored: PaymentMeans;
  /** The payer's word for it, in their language (donor and member spaces). */
  label: MessageKey;
  /** The back office's word (French), naming the provider where staff need it to find the payment. */
  staffLabel: string;
  /** The dues history's short word (French back office). */
  shortLabel: string;
}

const WORDS: Record<Means, MeansWords> = {
  card: { stored: 'stripe', label: 'donorSpace.methodCard', staffLabel: 'Carte (Stripe)', shortLabel: 'Carte' },
  paypal: { stored: 'paypal', label: 'donorSpace.methodPaypal', staffLabel: 'PayPal', shortLabel: 'PayPal' },
  crypto: { stored: 'coingate', label: 'donorSpace.methodCrypto', staffLabel: 'Crypto (CoinGate)', shortLabel: 'Crypto' },
  mobileMoney: { stored: 'flutterwave', label: 'donorSpace.methodMobile', staffLabel: 'Mobile money (Flutterwave)', shortLabel: 'Mobile money' },
  mobileLink: { stored: 'mobile_link', label: 'donorSpace.methodMobile', staffLabel: 'Mobile money (lien)', shortLabel: 'Mobile money' },
  cash: { stored: 'cash', label: 'donorSpace.methodCash', staffLabel: 'Espèces', shortLabel: 'Espèces' },
  cheque: { stored: 'cheque', label: 'donorSpace.methodCheque', staffLabel: 'Chèque', shortLabel: 'Chèque' },
  transfer: { stored: 'transfer', label: 'donorSpace.methodTransfer', staffLabel: 'Virement', shortLabel: 'Virement' },
};

const BY_STORED = new Map<string, Means>(MEANS.map((m) => [WORDS[m].stored, m]));

export const isMeans = (v: unknown): v is Means => typeof v === 'string' && Object.hasOwn(WORDS, v);

/** The means of a stored payment (its `provider` column), or of a means already; undefined for a word we do not know. */
export function meansOf(value: string): Means | undefined {
  return isMeans(value) ? value : BY_STORED.get(value);
}

/** The ledger's `provider` value for a means. */
export const storedAs = (m: Means): PaymentMeans => WORDS[m].stored;

/** The provider that takes a means online; undefined for money received by hand. */
export function providerFor(m: Means): ProviderName | undefined {
  const stored = WORDS[m].stored;
  return (PROVIDERS as readonly string[]).includes(stored) ? (stored as ProviderName) : undefined;
}

/** The payer's word for a means or a stored payment's; undefined for a word we do not know. */
export const meansLabel = (value: string): MessageKey | undefined => {
  const m = meansOf(value);
  return m && WORDS[m].label;
};

/** The payer's word, said with the page's `t`; a word we do not know, as it is. */
export function meansText(value: string, t: (key: MessageKey) => string): string {
  const key = meansLabel(value);
  return key ? t(key) : value;
}

/** The back office's word for a means or a stored payment's (the value itself when unknown). */
export const staffMeansLabel = (value: string): string => {
  const m = meansOf(value);
  return m ? WORDS[m].staffLabel : value;
};

/** The dues history's short word for a means (the value itself when unknown). */
export const shortMeansLabel = (value: string): string => {
  const m = meansOf(value);
  return m ? WORDS[m].shortLabel : value;
};

/** Money an Admin received by hand and recorded (no provider behind it). */
export const OFFLINE: readonly Means[] = ['cash', 'cheque', 'transfer'];

/**
 * The CFA francs (XOF, XAF): tied to the euro by a fixed parity (money.ts), so an amount in euros
 * (a gift's, fixed dues) converts to them exactly; other mobile money currencies take the amount
 * the payer types.
 */
export const isCfa = (currency: string | undefined | null): boolean => currency === 'XOF' || currency === 'XAF';
