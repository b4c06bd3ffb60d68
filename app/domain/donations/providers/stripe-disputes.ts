import type Stripe from 'stripe';
import type { DisputeOutcome, PaymentDispute } from './provider';

/**
 * Stripe's disputes in our words (ADR 027). A card chargeback opens as `needs_response` (or
 * `warning_needs_response` for an inquiry, before any money is taken) and closes `won` or `lost`;
 * a SEPA direct debit returned by the donor's bank arrives as a dispute created already `lost`
 * (nothing to answer). `funds_withdrawn` repeats what `created` said, for an endpoint that missed it.
 */
export const STRIPE_DISPUTE_EVENTS: ReadonlySet<string> = new Set(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.closed']);

const OUTCOMES: Readonly<Record<string, DisputeOutcome>> = {
  warning_needs_response: 'open',
  warning_under_review: 'open',
  needs_response: 'open',
  under_review: 'open',
  // An inquiry closed without becoming a chargeback: nothing was taken.
  warning_closed: 'won',
  won: 'won',
  lost: 'lost',
};

/** Stripe's reason codes, as the back office reads them (French). */
const REASONS: Readonly<Record<string, string>> = {
  bank_cannot_process: 'la banque n’a pas pu traiter le paiement',
  credit_not_processed: 'remboursement attendu non reçu',
  customer_initiated: 'demande du payeur à sa banque',
  debit_not_authorized: 'prélèvement non autorisé',
  duplicate: 'paiement en double',
  fraudulent: 'paiement frauduleux selon le titulaire',
  general: 'motif non détaillé',
  incorrect_account_details: 'coordonnées bancaires erronées',
  insufficient_funds: 'provision insuffisante',
  product_not_received: 'contrepartie non reçue',
  product_unacceptable: 'contrepartie non conforme',
  subscription_canceled: 'abonnement résilié',
  unrecognized: 'paiement non reconnu',
};

/** What a reason code says, in French; a code we do not know is shown as it came. */
export function disputeReasonLabel(code: string | null | undefined): string {
  if (!code) return 'motif non précisé';
  return Object.hasOwn(REASONS, code) ? REASONS[code] : `motif « ${code} »`;
}

/** A dispute's news in our words; null for a status Stripe may add that we do not know (logged by the caller, nothing done). */
export function stripeDispute(d: Pick<Stripe.Dispute, 'id' | 'status' | 'reason' | 'amount' | 'currency'>): PaymentDispute | null {
  if (!Object.hasOwn(OUTCOMES, d.status)) return null;
  return { ref: d.id, outcome: OUTCOMES[d.status], reason: d.reason || null, reasonLabel: disputeReasonLabel(d.reason), amountMinor: d.amount, currency: d.currency.toUpperCase() };
}
