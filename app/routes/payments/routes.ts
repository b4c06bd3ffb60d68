import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Donations: admin screens (relative to /admin) and public callbacks/webhooks (absolute). */
export const adminRoutes: RouteConfigEntry[] = [
  route('payments', 'routes/payments/admin-settings.tsx'),
  route('donations', 'routes/payments/admin-donations.tsx'),
  route('donations/export.csv', 'routes/payments/admin-donations-csv.ts'),
];
export const publicRoutes: RouteConfigEntry[] = [
  route('webhooks/stripe', 'routes/payments/webhook-stripe.ts'),
  route('webhooks/coingate', 'routes/payments/webhook-coingate.ts'),
  route('webhooks/paypal', 'routes/payments/webhook-paypal.ts'),
  route('webhooks/flutterwave', 'routes/payments/webhook-flutterwave.ts'),
  route('api/donations/paypal/orders', 'routes/payments/paypal-create.ts'),
  route('api/donations/paypal/orders/:orderId/capture', 'routes/payments/paypal-capture.ts'),
  route('api/donations/mobile-money', 'routes/payments/mobile-start.ts'),
  route('api/donations/mobile-money/callback', 'routes/payments/mobile-callback.ts'),
];
