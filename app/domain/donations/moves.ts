import { DONATION_STATUSES, type DonationStatus } from './status';

/**
 * From a status, the statuses verified provider data may move a donation to (the ledger applies
 * them: ledger.server.ts). A cancelled attempt may still succeed (the donor left the cancel page
 * open while the provider settled); a debit being processed (ADR 029) only succeeds or fails, so a
 * late "processing" news never takes a settled gift back; nothing leaves failed or refunded, and
 * only a refund leaves succeeded. Shared with the browser: no server imports.
 */
export const ALLOWED_TRANSITIONS: Record<DonationStatus, readonly DonationStatus[]> = {
  pending: ['processing', 'succeeded', 'failed', 'cancelled'],
  processing: ['succeeded', 'failed'],
  cancelled: ['processing', 'succeeded', 'failed'],
  succeeded: ['refunded'],
  // Stryker disable next-line ArrayDeclaration: an entry that is not a status can never be asked for
  failed: [],
  // Stryker disable next-line ArrayDeclaration: an entry that is not a status can never be asked for
  refunded: [],
  // Stryker disable next-line ArrayDeclaration: an entry that is not a status can never be asked for
  adopted: [],
};

export function canTransition(from: DonationStatus, to: DonationStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** The statuses a donation may be in for `to` to apply. */
export function sourcesOf(to: DonationStatus): DonationStatus[] {
  return DONATION_STATUSES.filter((s) => canTransition(s, to));
}

/** `sourcesOf` for every status, worked out once: what the ledger's conditional UPDATE reads. */
export const SOURCES: Readonly<Record<DonationStatus, readonly DonationStatus[]>> = Object.fromEntries(DONATION_STATUSES.map((to) => [to, sourcesOf(to)])) as Record<DonationStatus, DonationStatus[]>;
