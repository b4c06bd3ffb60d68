import type { MessageKey } from '~/lib/i18n';
import { PROVIDER_OF_MEANS, PROVIDER_TITLES, PROVIDERS, type HandMeans, type PaymentMeans, type ProviderName } from './providers/names';

/**
 * The means of payment, in one table (issue 39): every form, list, report, CSV, the donor and member
 * spaces and the dues history read their words here. A means is what the payer chose (card, PayPal,
 * crypto, mobile money, a payment link, a SEPA direct debit, or money handed to the foundation); the
 * ledger's `provider` column keeps who took it (a provider's name, or the offline means itself) and
 * its `method` what the provider says the payer paid with, where one provider takes several means
 * (Stripe: card or SEPA direct debit, ADR 029). Readers give both: `meansOf(provider, method)`.
 * Shared with the browser: no server imports.
 */
export const MEANS = ['card', 'sepa', 'paypal', 'crypto', 'mobileMoney', 'mobileLink', 'cash', 'cheque', 'transfer', 'inKind', 'waivedExpenses'] as const;
export type Means = (typeof MEANS)[number];

interface MeansWords {
  /** The ledger's `provider` value for a payment by this means. */
  stored: PaymentMeans;
  /** The ledger's `method` that tells this means from the provider's other one (none: the provider's default means). */
  method?: string;
  /** The payer's word for it, in their language (donor and member spaces). */
  label: MessageKey;
  /** The back office's word (French), naming the provider where staff need it to find the payment. */
  staffLabel: string;
  /** The dues history's short word (French back office). */
  shortLabel: string;
  /** The "mode de versement" a tax receipt prints (French). */
  receiptLabel: string;
  /** What a payer picks on a form (a means offered online): the donate page's tab, the joining form's choice. */
  choice?: { donateTab: MessageKey; join: MessageKey };
}

type OnlineMeans = keyof typeof PROVIDER_OF_MEANS;

/** A means paid online: stored under its provider, which the back office names beside the means' word ("Carte (…)"), and the receipt's word. */
const online = (m: OnlineMeans, word: string, label: MessageKey, receiptLabel: string): MeansWords => {
  const title = PROVIDER_TITLES[PROVIDER_OF_MEANS[m]];
  return { stored: PROVIDER_OF_MEANS[m], label, staffLabel: title === word ? word : `${word} (${title})`, shortLabel: word, receiptLabel };
};
/** Money handed to the foundation: stored as the means itself, one word everywhere. */
const offline = (m: HandMeans, word: string, label: MessageKey, receiptLabel = word): MeansWords => ({ stored: m, label, staffLabel: word, shortLabel: word, receiptLabel });

const WORDS: Record<Means, MeansWords> = {
  card: { ...online('card', 'Carte', 'donorSpace.methodCard', 'Carte bancaire'), choice: { donateTab: 'donate.tabCard', join: 'join.methodCard' } },
  // Taken by Stripe as cards are; told apart by the payment method Stripe reports (ADR 029).
  sepa: { stored: PROVIDER_OF_MEANS.card, method: 'sepa_debit', label: 'donorSpace.methodSepa', staffLabel: 'Prélèvement SEPA', shortLabel: 'Prélèvement SEPA', receiptLabel: 'Prélèvement SEPA' },
  paypal: { ...online('paypal', 'PayPal', 'donorSpace.methodPaypal', 'PayPal'), choice: { donateTab: 'donate.tabPaypal', join: 'join.methodPaypal' } },
  crypto: { ...online('crypto', 'Crypto', 'donorSpace.methodCrypto', `Cryptomonnaie (${PROVIDER_TITLES[PROVIDER_OF_MEANS.crypto]})`), choice: { donateTab: 'donate.tabCrypto', join: 'join.methodCrypto' } },
  mobileMoney: {
    ...online('mobileMoney', 'Mobile money', 'donorSpace.methodMobile', `Mobile money (${PROVIDER_TITLES[PROVIDER_OF_MEANS.mobileMoney]})`),
    choice: { donateTab: 'donate.tabMobile', join: 'join.methodMobileMoney' },
  },
  mobileLink: online('mobileLink', 'Mobile money', 'donorSpace.methodMobile', 'Mobile money'),
  cash: offline('cash', 'Espèces', 'donorSpace.methodCash'),
  cheque: offline('cheque', 'Chèque', 'donorSpace.methodCheque'),
  transfer: offline('transfer', 'Virement', 'donorSpace.methodTransfer'),
  // Not money (ADR 030): the receipt's "mode de versement" names what was handed over.
  inKind: offline('in_kind', 'En nature', 'donorSpace.methodInKind', 'Remise de biens'),
  waivedExpenses: offline('waived_expenses', 'Abandon de frais', 'donorSpace.methodWaivedExpenses', 'Abandon de frais'),
};

/** A stored payment's means: by its provider and, where the provider reported one that names a means, its method. */
const BY_STORED = new Map<string, Means>(MEANS.map((m) => [WORDS[m].method ? `${WORDS[m].stored}/${WORDS[m].method}` : WORDS[m].stored, m]));

export const isMeans = (v: unknown): v is Means => typeof v === 'string' && Object.hasOwn(WORDS, v);

/**
 * The means of a stored payment (its `provider` column and the `method` its provider reported), or
 * of a means already; undefined for a word we do not know. A method that names no means of its own
 * (a card's 'card', or none reported) is the provider's default means.
 */
export function meansOf(value: string, method?: string | null): Means | undefined {
  if (isMeans(value)) return value;
  return (method ? BY_STORED.get(`${value}/${method}`) : undefined) ?? BY_STORED.get(value);
}

/**
 * What a report groups a stored payment under, and every reader below understands: its `provider`,
 * or the means itself where the provider's method names one of its own (a SEPA debit: 'sepa').
 */
export const meansKey = (d: { provider: string; method?: string | null }): string => (d.method ? BY_STORED.get(`${d.provider}/${d.method}`) : undefined) ?? d.provider;

/** The means a provider's reported method names (SEPA by Stripe), beside the provider's default one. */
export const METHOD_MEANS: readonly Means[] = MEANS.filter((m) => WORDS[m].method);

/**
 * A list's filter by a stored value or a means, as the ledger's columns: a means its method names
 * (SEPA: Stripe's 'sepa_debit'); a provider, its default means (every other method, or none).
 */
export function meansFilter(value: string): { provider?: PaymentMeans; method?: string; notMethod?: string } {
  const m = isMeans(value) ? WORDS[value] : undefined;
  if (m?.method) return { provider: m.stored, method: m.method };
  const other = METHOD_MEANS.find((x) => WORDS[x].stored === value);
  return value ? { provider: value as PaymentMeans, ...(other ? { notMethod: WORDS[other].method } : {}) } : {};
}

/** The ledger's `provider` value for a means. */
export const storedAs = (m: Means): PaymentMeans => WORDS[m].stored;

/** The provider that takes a means online; undefined for money received by hand. */
export function providerFor(m: Means): ProviderName | undefined {
  const stored = WORDS[m].stored;
  return (PROVIDERS as readonly string[]).includes(stored) ? (stored as ProviderName) : undefined;
}

/** The payer's word for a means or a stored payment's (its provider and method); undefined for a word we do not know. */
export const meansLabel = (value: string, method?: string | null): MessageKey | undefined => {
  const m = meansOf(value, method);
  return m && WORDS[m].label;
};

/** The payer's word, said with the page's `t`; a word we do not know, as it is. */
export function meansText(value: string, t: (key: MessageKey) => string, method?: string | null): string {
  const key = meansLabel(value, method);
  return key ? t(key) : value;
}

/** The back office's word for a means or a stored payment's (its provider and method; the value itself when unknown). */
export const staffMeansLabel = (value: string, method?: string | null): string => {
  const m = meansOf(value, method);
  return m ? WORDS[m].staffLabel : value;
};

/**
 * A stored payment's "mode de versement" as its tax receipt prints it, by its provider and the
 * method it reported (its provider's name when unknown): read while a receipt is numbered inside
 * the ledger's transaction.
 */
export const receiptMeansLabel = (d: { provider: string; method?: string | null }): string => {
  const m = meansOf(d.provider, d.method);
  return m ? WORDS[m].receiptLabel : d.provider;
};

/** A means offered on the forms: card, PayPal, crypto, mobile money. */
export type ChoiceMeans = 'card' | 'paypal' | 'crypto' | 'mobileMoney';

/** What a payer picks on a form for a means: the donate page's tab or the joining form's choice (its words on that form). */
export const choiceLabel = (m: ChoiceMeans, form: 'donateTab' | 'join'): MessageKey => WORDS[m].choice![form];

/** The dues history's short word for a means (the value itself when unknown). */
export const shortMeansLabel = (value: string, method?: string | null): string => {
  const m = meansOf(value, method);
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
