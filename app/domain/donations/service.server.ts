import type { DonationDeps } from './context.server';
import { findByRef, type Donation } from './ledger.server';
import { cancelAttempt as cancel, confirmReturn } from './payments.server';

/**
 * The payment pipeline's questions from outside it (payments.server.ts): the PayPal buttons'
 * capture, the cancel page; every return page asks the one road back (returns.server.ts). Gifts
 * start in app/domain/giving/start.server.ts (startGift); webhooks go from their route to
 * `handleWebhook` (app/routes/payments/api.server.ts).
 */
export type { DonationDeps } from './context.server';
export { recheck, recheckPending, RECHECK_WINDOW_MS, type WebhookOutcome } from './payments.server';
export { sendReceipt } from './thanks.server';
export { activeProducts } from './payment-settings.server';

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

/** /payment/cancel?d=…: see payments.server.ts's cancelAttempt. */
export const cancelAttempt = (deps: DonationDeps, id: string): Promise<'cancelled' | 'unconfirmed'> => cancel(deps, id);
