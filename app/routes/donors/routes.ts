import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** The donor space (ADR 013): pages inside the site's layout, downloads outside it, admin screens under /admin. */
export const sitePages: RouteConfigEntry[] = [
  route('mon-espace', 'routes/donors/space.tsx'),
  route('mon-espace/connexion', 'routes/donors/sign-in.tsx'),
];
export const downloads: RouteConfigEntry[] = [
  route('mon-espace/export/:format', 'routes/donors/export.ts'),
  route('mon-espace/recus/:receiptId', 'routes/donors/receipt.ts'),
  route('mon-espace/carte/:membershipId', 'routes/donors/member-card.ts'),
];
export const adminRoutes: RouteConfigEntry[] = [
  route('donations/donateur', 'routes/donors/admin-donor.tsx'),
  route('donations/donateur/export/:format', 'routes/donors/admin-donor-export.ts'),
];
