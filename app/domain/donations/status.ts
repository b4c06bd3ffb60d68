import { HAND_MEANS, NON_MONEY_MEANS, OFFLINE_MEANS, PAYMENT_MEANS, PROVIDERS, type HandMeans, type NonMoneyMeans, type OfflineMeans, type PaymentMeans, type ProviderName } from '~/domain/means/providers/names';

export { HAND_MEANS, NON_MONEY_MEANS, OFFLINE_MEANS, PAYMENT_MEANS, PROVIDERS, type HandMeans, type NonMoneyMeans, type OfflineMeans, type PaymentMeans, type ProviderName };

/** Donation statuses and what the ledger's `provider` column holds (the means' words: means.ts). Shared with the browser; the moves between statuses are the ledger's (ledger.server.ts). */
/**
 * `processing`: the payer signed, the money is on its way and may still fail (a SEPA direct debit
 * takes days, ADR 029): no receipt, counted nowhere until it succeeds.
 */
/**
 * `adopted`: a monthly gift that was already running at the provider when the foundation moved in
 * (ADR 037): the row that starts it here, never a payment — no money, no receipt, no move.
 */
export const DONATION_STATUSES = ['pending', 'processing', 'succeeded', 'failed', 'cancelled', 'refunded', 'adopted'] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/** An offline payment's key: this prefix and the form's one-time token (ours, meaningless to staff). */
export const OFFLINE_REF_PREFIX = 'offline:';

/** The reference staff read for a payment: the provider's, or for an offline one its cheque number or label ('' for none). */
export function referenceOf(d: { provider_ref: string; secondary_ref: string | null }): string {
  return d.provider_ref.startsWith(OFFLINE_REF_PREFIX) ? (d.secondary_ref ?? '') : d.provider_ref;
}

export const STATUS_LABELS: Record<DonationStatus, string> = {
  pending: 'En attente',
  processing: 'En cours de prélèvement',
  succeeded: 'Réussi',
  failed: 'Échoué',
  cancelled: 'Annulé',
  refunded: 'Remboursé',
  adopted: 'Don mensuel repris',
};

/**
 * What the payer paid with, as the provider reports it (ADR 029): its payment method type
 * ('card', 'sepa_debit') and, for a direct debit, the account's last four digits and the mandate's
 * reference and signing instant (ISO 8601).
 */
export interface PaymentInstrument {
  method: string;
  accountLast4?: string | null;
  mandateRef?: string | null;
  mandateSignedAt?: string | null;
}

/** The ledger's columns for an instrument (none when not known). */
export const instrumentColumns = (i: PaymentInstrument | null | undefined) => ({
  method: i?.method ?? null,
  account_last4: i?.accountLast4 ?? null,
  mandate_ref: i?.mandateRef ?? null,
  mandate_signed_at: i?.mandateSignedAt ?? null,
});

/** A recorded payment's instrument (a monthly gift's renewals are paid as its first was); undefined when none was reported. */
export function instrumentOf(d: { method: string | null; account_last4: string | null; mandate_ref: string | null; mandate_signed_at: string | null }): PaymentInstrument | undefined {
  return d.method ? { method: d.method, accountLast4: d.account_last4, mandateRef: d.mandate_ref, mandateSignedAt: d.mandate_signed_at } : undefined;
}

/** A direct debit's account and mandate, as the donor is shown them (ADR 029). */
export interface DebitDetails {
  last4: string;
  reference: string;
  signedAt: string;
}

/** A payment's debit details, when its provider told us all three; null otherwise (a card, a gift recorded before). */
export function debitOf(d: { account_last4: string | null; mandate_ref: string | null; mandate_signed_at: string | null }): DebitDetails | null {
  return d.account_last4 && d.mandate_ref && d.mandate_signed_at ? { last4: d.account_last4, reference: d.mandate_ref, signedAt: d.mandate_signed_at } : null;
}
