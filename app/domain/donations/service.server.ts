import type { DonationDeps } from './context.server';
import { cancelAttempt as cancel } from './payments.server';

/**
 * The payment pipeline's questions from outside it (payments.server.ts): the cancel page; every
 * return page and the in-page buttons' approval ask the one road back (returns.server.ts). Gifts
 * start in app/domain/giving/start.server.ts (startGift); webhooks go from their route to
 * `handleWebhook` (app/routes/payments/api.server.ts).
 */
export type { DonationDeps } from './context.server';
export { recheck, recheckPending, RECHECK_WINDOW_MS, type WebhookOutcome } from './payments.server';
export { sendReceipt } from './thanks.server';
export { activeProducts } from './providers/settings.server';

/** /payment/cancel?d=…: see payments.server.ts's cancelAttempt. */
export const cancelAttempt = (deps: DonationDeps, id: string): Promise<'cancelled' | 'unconfirmed'> => cancel(deps, id);
