import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** Editorial workflow screens (issue #17), one registration per content type that joined it. Paths relative to /admin. */
const dir = 'routes/admin/editorial';
export const routes: RouteConfigEntry[] = [
  route('blog/:id/autosave', `${dir}/autosave.ts`, { id: 'editorial/post-autosave' }),
  route('blog/:id/historique', `${dir}/history.tsx`, { id: 'editorial/post-history' }),
  route('actions/:id/autosave', `${dir}/autosave.ts`, { id: 'editorial/project-autosave' }),
  route('actions/:id/historique', `${dir}/history.tsx`, { id: 'editorial/project-history' }),
  route('partners/:id/autosave', `${dir}/autosave.ts`, { id: 'editorial/partner-autosave' }),
  route('partners/:id/historique', `${dir}/history.tsx`, { id: 'editorial/partner-history' }),
  route('pages/edit/:id/autosave', `${dir}/autosave.ts`, { id: 'editorial/page-autosave' }),
  route('pages/edit/:id/historique', `${dir}/history.tsx`, { id: 'editorial/page-history' }),
  route('campaigns/:id/autosave', `${dir}/autosave.ts`, { id: 'editorial/campaign-autosave' }),
  route('campaigns/:id/historique', `${dir}/history.tsx`, { id: 'editorial/campaign-history' }),
  route('lettres/:id/historique', `${dir}/history.tsx`, { id: 'editorial/letter-history' }),
];
