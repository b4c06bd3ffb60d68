import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** The accounting export (ADR 034): the Admin's screens and downloads, relative to /admin. */
export const adminRoutes: RouteConfigEntry[] = [
  route('comptabilite', 'routes/accounting/screen.tsx'),
  route('comptabilite/plan', 'routes/accounting/chart.tsx'),
  route('comptabilite/fec', 'routes/accounting/fec.ts'),
  route('comptabilite/journal.csv', 'routes/accounting/journal-csv.ts'),
];
