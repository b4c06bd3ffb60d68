import { route, type RouteConfigEntry } from '@react-router/dev/routes';

/** Content screens (pages, projects, blog, partners, settings, messages): the content issue. Paths are relative to /admin; files relative to app/. */
const dir = 'routes/admin/content';
export const routes: RouteConfigEntry[] = [
  route('pages', `${dir}/pages.tsx`),
  route('pages/edit/:pageId', `${dir}/page-edit.tsx`),
  route('pages/:pageId', `${dir}/page-redirect.tsx`),
  route('actions', `${dir}/projects.tsx`),
  route('actions/new', `${dir}/project-edit.tsx`, { id: 'content/project-new' }),
  route('actions/:id', `${dir}/project-edit.tsx`, { id: 'content/project-edit' }),
  route('actions/:id/supprimer', `${dir}/delete.tsx`, { id: 'content/project-delete' }),
  route('blog', `${dir}/posts.tsx`),
  route('blog/new', `${dir}/post-edit.tsx`, { id: 'content/post-new' }),
  route('blog/:id', `${dir}/post-edit.tsx`, { id: 'content/post-edit' }),
  route('blog/:id/supprimer', `${dir}/delete.tsx`, { id: 'content/post-delete' }),
  route('partners', `${dir}/partners.tsx`),
  route('partners/new', `${dir}/partner-edit.tsx`, { id: 'content/partner-new' }),
  route('partners/:id', `${dir}/partner-edit.tsx`, { id: 'content/partner-edit' }),
  route('partners/:id/supprimer', `${dir}/delete.tsx`, { id: 'content/partner-delete' }),
  route('settings', `${dir}/settings.tsx`),
  route('messages', `${dir}/messages.tsx`),
  route('messages/:id', `${dir}/message.tsx`),
  route('messages/:id/supprimer', `${dir}/delete.tsx`, { id: 'content/message-delete' }),
];
