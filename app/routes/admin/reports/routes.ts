import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** Donation reports (ADR 016). Paths are relative to /admin; files relative to app/. */
export const routes: RouteConfigEntry[] = [
  route('rapports', 'routes/admin/reports/screen.tsx'),
  route('rapports/export.csv', 'routes/admin/reports/csv.ts'),
];
