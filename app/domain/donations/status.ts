/** Donation statuses and the only transitions the ledger allows. Shared with the browser. */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'refunded'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

export const PROVIDERS = ['stripe', 'paypal', 'coingate', 'flutterwave', 'mobile_link'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * Money an Admin received by hand and recorded (ADR 019, ADR 021): no provider behind it, so no
 * callback ever moves it; the ledger records it succeeded on the Admin's act, audited.
 */
export const OFFLINE_MEANS = ['cash', 'cheque', 'transfer'] as const;
export type OfflineMeans = (typeof OFFLINE_MEANS)[number];
/** Every value of `donations.provider`: a provider's name or an offline means. */
export type PaymentMeans = ProviderName | OfflineMeans;
export const PAYMENT_MEANS: readonly PaymentMeans[] = [...PROVIDERS, ...OFFLINE_MEANS];

/** An offline payment's key: this prefix and the form's one-time token (ours, meaningless to staff). */
export const OFFLINE_REF_PREFIX = 'offline:';

/** The reference staff read for a payment: the provider's, or for an offline one its cheque number or label ('' for none). */
export function referenceOf(d: { provider_ref: string; secondary_ref: string | null }): string {
  return d.provider_ref.startsWith(OFFLINE_REF_PREFIX) ? (d.secondary_ref ?? '') : d.provider_ref;
}

/**
 * From a status, the statuses verified provider data may move a donation to. A cancelled attempt
 * may still succeed (the donor left the cancel page open while the provider settled); nothing
 * leaves failed or refunded, and only a refund leaves succeeded.
 */
export const ALLOWED_TRANSITIONS: Record<DonationStatus, readonly DonationStatus[]> = {
  pending: ['succeeded', 'failed', 'cancelled'],
  cancelled: ['succeeded', 'failed'],
  succeeded: ['refunded'],
  // Stryker disable next-line ArrayDeclaration: an entry that is not a status can never be asked for
  failed: [],
  // Stryker disable next-line ArrayDeclaration: an entry that is not a status can never be asked for
  refunded: [],
};

export function canTransition(from: DonationStatus, to: DonationStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** The statuses a donation may be in for `to` to apply. */
export function sourcesOf(to: DonationStatus): DonationStatus[] {
  return DONATION_STATUSES.filter((s) => canTransition(s, to));
}

export const STATUS_LABELS: Record<DonationStatus, string> = {
  pending: 'En attente',
  succeeded: 'Réussi',
  failed: 'Échoué',
  cancelled: 'Annulé',
  refunded: 'Remboursé',
};

export const PROVIDER_LABELS: Record<PaymentMeans, string> = {
  stripe: 'Carte (Stripe)',
  paypal: 'PayPal',
  coingate: 'Crypto (CoinGate)',
  flutterwave: 'Mobile money (Flutterwave)',
  mobile_link: 'Mobile money (lien)',
  cash: 'Espèces',
  cheque: 'Chèque',
  transfer: 'Virement',
};
