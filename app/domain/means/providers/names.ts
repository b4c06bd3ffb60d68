/**
 * The payment providers by the names the ledger's `provider` column keeps, which provider takes
 * each means paid online, and each one's name as staff read it (ADR 019). Shared with the browser:
 * no server imports. The means' own words (labels, forms) are means.ts's, which reads this.
 */
export const PROVIDERS = ['stripe', 'paypal', 'coingate', 'flutterwave', 'mobile_link'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * Money an Admin received by hand and recorded (ADR 019, ADR 021): no provider behind it, so no
 * callback ever moves it; the ledger records it succeeded on the Admin's act, audited.
 */
export const OFFLINE_MEANS = ['cash', 'cheque', 'transfer'] as const;
export type OfflineMeans = (typeof OFFLINE_MEANS)[number];
/**
 * Gifts not made in money (ADR 030): goods given (en nature) and a volunteer's waived expenses
 * (abandon de frais). Recorded by hand like the offline means, valued in euros, and counted apart
 * from money in every total.
 */
export const NON_MONEY_MEANS = ['in_kind', 'waived_expenses'] as const;
export type NonMoneyMeans = (typeof NON_MONEY_MEANS)[number];
/** What staff record by hand: money received, or a gift not in money. */
export const HAND_MEANS = [...OFFLINE_MEANS, ...NON_MONEY_MEANS] as const;
export type HandMeans = (typeof HAND_MEANS)[number];
/** Every value of `donations.provider`: a provider's name, an offline means or a gift not in money. */
export type PaymentMeans = ProviderName | HandMeans;
export const PAYMENT_MEANS: readonly PaymentMeans[] = [...PROVIDERS, ...HAND_MEANS];

/** The provider that takes a means paid online (card, PayPal, crypto, mobile money's checkout or payment link). */
export const PROVIDER_OF_MEANS = { card: 'stripe', paypal: 'paypal', crypto: 'coingate', mobileMoney: 'flutterwave', mobileLink: 'mobile_link' } as const satisfies Record<string, ProviderName>;

/** A provider as the back office names it beside the means (the payment link is named by what it is). */
export const PROVIDER_TITLES: Record<ProviderName, string> = { stripe: 'Stripe', paypal: 'PayPal', coingate: 'CoinGate', flutterwave: 'Flutterwave', mobile_link: 'lien' };
