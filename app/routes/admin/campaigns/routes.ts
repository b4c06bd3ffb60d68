import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** Campaign screens (issue #16): paths relative to /admin; files relative to app/. */
const dir = 'routes/admin/campaigns';
export const routes: RouteConfigEntry[] = [
  route('campaigns', `${dir}/list.tsx`),
  route('campaigns/new', `${dir}/edit.tsx`, { id: 'campaigns/new' }),
  route('campaigns/:id', `${dir}/edit.tsx`, { id: 'campaigns/edit' }),
  route('campaigns/:id/supprimer', 'routes/admin/content/delete.tsx', { id: 'campaigns/delete' }),
];
