import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** Membership: the register and its settings (relative to /admin; ADR 021). */
export const adminRoutes: RouteConfigEntry[] = [
  route('adhesions', 'routes/membership/admin-register.tsx'),
  route('adhesions/export.csv', 'routes/membership/admin-register-csv.ts'),
  route('adhesions/nouveau', 'routes/membership/admin-new.tsx'),
  route('adhesions/assemblee', 'routes/membership/admin-assembly.tsx'),
  route('adhesions/assemblee/feuille.pdf', 'routes/membership/admin-assembly-pdf.ts'),
  route('adhesions/rappels', 'routes/membership/admin-reminders.tsx'),
  route('adhesions/parametres', 'routes/membership/admin-settings.tsx'),
  route('adhesions/parametres/types/:typeId', 'routes/membership/admin-type.tsx'),
  route('adhesions/:memberId', 'routes/membership/admin-member.tsx'),
  route('adhesions/:memberId/carte.pdf', 'routes/membership/admin-card-pdf.ts'),
];

/** The member card's check page (ADR 039), inside the site's layout, in each language. */
export const sitePages: RouteConfigEntry[] = [route('adhesion/verifier/:token', 'routes/membership/card-check.tsx')];
