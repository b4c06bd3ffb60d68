import type { DB } from '~db/index';
import type { DonationDeps } from './context.server';
import { findById, findByRef, type Donation } from './ledger.server';
import { cancelAttempt as cancel, confirmReturn, settle } from './payments.server';
import { verifyFlutterwaveTransaction } from './providers/flutterwave.server';

/**
 * The return pages' questions to the payment pipeline (payments.server.ts): the Stripe success
 * page, the PayPal buttons' capture, the Flutterwave checkout's callback, the cancel page. Gifts
 * start in app/domain/giving/start.server.ts (startGift); webhooks go from their route to
 * `handleWebhook` (app/routes/payments/api.server.ts).
 */
export type { DonationDeps } from './context.server';
export { recheck, recheckPending, RECHECK_WINDOW_MS, type WebhookOutcome } from './payments.server';
export { sendReceipt } from './thanks.server';
export { activeProducts } from './payment-settings.server';

/** /payment/success?session_id=…: asks Stripe, never the browser, whether it was paid. */
export async function confirmStripeSession(deps: DonationDeps, sessionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'stripe', sessionId);
  return donation && confirmReturn(deps, donation);
}

/**
 * The buttons' onApprove: the payer's return, as any other (`confirmReturn`: PayPal's `verify`
 * captures the order they approved). Succeeds only for a COMPLETED capture of the expected amount
 * in EUR; a declined card throws PayPal's refusal (the gift stays pending for another try); a
 * capture PayPal holds (PENDING) stays pending until PayPal settles it.
 */
export async function capturePayPalDonation(deps: DonationDeps, orderId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'paypal', orderId);
  return donation && confirmReturn(deps, donation);
}

/** The inline checkout's callback: the transaction id is verified with the secret key, and counts only when exactly this gift's. */
export async function confirmFlutterwave(deps: DonationDeps, txRef: string, transactionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'flutterwave', txRef);
  if (!donation) return undefined;
  const p = await verifyFlutterwaveTransaction(deps, donation, transactionId);
  if (p) await settle(deps, 'flutterwave', p, donation);
  return findById(deps.db, donation.id);
}

/** /payment/cancel?d=…: see payments.server.ts's cancelAttempt. */
export const cancelAttempt = (db: DB, id: string): Promise<'cancelled' | 'unconfirmed'> => cancel({ db }, id);
