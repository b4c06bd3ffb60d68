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
];
