import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Gifts received by post or at the bank (relative to /admin; ADR 028). */
export const adminRoutes: RouteConfigEntry[] = [
  route('cheques', 'routes/offline-gifts/batches.tsx'),
  route('cheques/don', 'routes/offline-gifts/single.tsx'),
  route('cheques/nature', 'routes/offline-gifts/nature.tsx'),
  route('cheques/nature/:paymentId/justificatif', 'routes/offline-gifts/evidence.ts'),
  route('cheques/remises/:batchId', 'routes/offline-gifts/batch.tsx'),
  route('cheques/remises/:batchId/bordereau.pdf', 'routes/offline-gifts/slip.ts'),
];
