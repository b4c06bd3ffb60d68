import { registerPaymentSubscribers } from '../../server/payment-subscribers';

/**
 * Vitest setup: what follows a payment is registered as the server registers it (ADR 019), so a
 * test calling the payment code directly sees the same mails and refreshes a running server sends.
 */
registerPaymentSubscribers();
