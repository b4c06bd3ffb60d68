/** Donation statuses and what the ledger's `provider` column holds (the means' words: means.ts). Shared with the browser; the moves between statuses are the ledger's (ledger.server.ts). */
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

export const STATUS_LABELS: Record<DonationStatus, string> = {
  pending: 'En attente',
  succeeded: 'Réussi',
  failed: 'Échoué',
  cancelled: 'Annulé',
  refunded: 'Remboursé',
};
