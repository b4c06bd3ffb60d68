import { HAND_MEANS, NON_MONEY_MEANS, OFFLINE_MEANS, PAYMENT_MEANS, PROVIDERS, type HandMeans, type NonMoneyMeans, type OfflineMeans, type PaymentMeans, type ProviderName } from '~/domain/means/providers/names';

export { HAND_MEANS, NON_MONEY_MEANS, OFFLINE_MEANS, PAYMENT_MEANS, PROVIDERS, type HandMeans, type NonMoneyMeans, type OfflineMeans, type PaymentMeans, type ProviderName };

/** Donation statuses and what the ledger's `provider` column holds (the means' words: means.ts). Shared with the browser; the moves between statuses are the ledger's (ledger.server.ts). */
export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'refunded'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

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
