import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Tax receipts: admin screens (relative to /admin). */
export const adminRoutes: RouteConfigEntry[] = [
  route('receipts', 'routes/receipts/admin-register.tsx'),
  route('receipts/export.csv', 'routes/receipts/admin-register-csv.ts'),
  route('receipts/parametres', 'routes/receipts/admin-settings.tsx'),
  route('receipts/declaration', 'routes/receipts/admin-declaration.tsx'),
  route('receipts/declaration.csv', 'routes/receipts/admin-declaration-csv.ts'),
  route('receipts/:receiptId', 'routes/receipts/admin-receipt.tsx'),
  route('receipts/:receiptId/pdf', 'routes/receipts/admin-receipt-pdf.ts'),
];
