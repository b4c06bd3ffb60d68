import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** The donors register (issue 44, ADR 038), relative to /admin. */
export const adminRoutes: RouteConfigEntry[] = [
  route('donateurs', 'routes/people/admin-list.tsx'),
  route('donateurs/doublons', 'routes/people/admin-duplicates.tsx'),
  route('donateurs/doublons/:a/:b', 'routes/people/admin-pair.tsx'),
  route('donateurs/etiquettes', 'routes/people/admin-tags.tsx'),
  route('donateurs/segments', 'routes/people/admin-segments.tsx'),
  route('donateurs/segments/:segmentId', 'routes/people/admin-segment.tsx'),
  route('donateurs/segments/:segmentId/csv', 'routes/people/admin-segment-csv.ts'),
  route('donateurs/:personId', 'routes/people/admin-person.tsx'),
];
