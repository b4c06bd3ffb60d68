import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** The donors register (issue 44, ADR 038), relative to /admin. */
export const adminRoutes: RouteConfigEntry[] = [
  route('donateurs', 'routes/people/admin-list.tsx'),
  route('donateurs/doublons', 'routes/people/admin-duplicates.tsx'),
  route('donateurs/doublons/:a/:b', 'routes/people/admin-pair.tsx'),
  route('donateurs/etiquettes', 'routes/people/admin-tags.tsx'),
  route('donateurs/:personId', 'routes/people/admin-person.tsx'),
];
