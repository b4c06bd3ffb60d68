import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Donations: admin screens (relative to /admin) and public callbacks/webhooks (absolute). */
export const adminRoutes: RouteConfigEntry[] = [
  route('payments', 'routes/payments/admin-settings.tsx'),
  route('donations', 'routes/payments/admin-donations.tsx'),
  route('donations/export.csv', 'routes/payments/admin-donations-csv.ts'),
  // The payout reconciliation (ADR 033).
  route('comptabilite/versements', 'routes/payments/admin-payouts.tsx'),
  route('dons/abonnements', 'routes/payments/admin-adopt.tsx'),
];
export const publicRoutes: RouteConfigEntry[] = [
  route('webhooks/:provider', 'routes/payments/webhook.ts'),
  // The PayPal tab's buttons (the means' in-page checkout): an order, then the payer's approval.
  route('api/donations/paypal/orders', 'routes/payments/buttons-order.ts'),
  route('api/donations/paypal/orders/:orderId/capture', 'routes/payments/buttons-approve.ts'),
  route('api/donations/mobile-money', 'routes/payments/mobile-start.ts'),
  route('api/donations/mobile-money/callback', 'routes/payments/mobile-callback.ts'),
];
