import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Where the money goes (ADR 032): the Admin's screens (relative to /admin). */
export const adminRoutes: RouteConfigEntry[] = [
  route('transparence', 'routes/transparency/admin-years.tsx'),
  route('transparence/:year', 'routes/transparency/admin-year.tsx'),
];

/** The public page, in each language (ADR 026): the latest published year, or the one its address names. */
export const sitePages: RouteConfigEntry[] = [route('ou-va-votre-argent/:year?', 'routes/transparency/page.tsx')];

/** The one-page summary of a published year: one address, `?lng=` for its language (ADR 026). */
export const resources: RouteConfigEntry[] = [route('ou-va-votre-argent/:year/essentiel.pdf', 'routes/transparency/summary-pdf.ts')];
