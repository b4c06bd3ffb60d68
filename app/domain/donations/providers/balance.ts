import type { DonationDeps } from '../context.server';
import type { Donation } from '../ledger.server';

/**
 * Fees and payouts as a provider's own ledger states them (ADR 033), in our words. A provider that
 * has a ledger to read implements `BalanceCapability`; one whose answers give no fee has none, and
 * nothing is recorded for its payments.
 */

/** What a movement was, as provider_balance_moves.kind stores it. */
export type MoveKind = 'payment' | 'refund' | 'dispute' | 'other';

/** One movement of the provider's balance; signed minor units in `currency` (a refund's gross and net are negative). */
export interface BalanceMove {
  /** The provider's own id of the movement (Stripe `txn_…`, PayPal capture or refund id). */
  ref: string;
  kind: MoveKind;
  grossMinor: number;
  /** What the provider kept (positive), or gave back (negative). */
  feeMinor: number;
  netMinor: number;
  /** Upper case ISO code. */
  currency: string;
  /** ISO date-times. */
  occurredAt: string;
  availableAt: string | null;
}

/** A transfer from the provider's balance to the bank, with the movements it carried. */
export interface PayoutNews {
  ref: string;
  amountMinor: number;
  currency: string;
  /** 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled' */
  status: string;
  createdAt: string;
  arrivalAt: string | null;
  /** The movements it carried (the payout's own withdrawal left out). */
  moves: BalanceMove[];
}

export interface BalanceCapability {
  /** Every movement one payment caused so far (its payment, refunds, disputes); [] when the provider says none yet. */
  moves(deps: DonationDeps, donation: Donation): Promise<BalanceMove[]>;
  /** Payouts created since `since`, each with its movements (a provider that pays out per payment has none). */
  payouts?(deps: DonationDeps, since: Date): Promise<PayoutNews[]>;
}

/** An ISO date-time from a Unix timestamp in seconds; null when there is none. */
export const isoOfUnix = (s: number | null | undefined): string | null => (typeof s === 'number' && Number.isFinite(s) ? new Date(s * 1000).toISOString() : null);
