import type { Editable } from '~/domain/revisions/editables.server';
import { pageTag } from '~/lib/cache-tags';
import { updateVersioned } from '~/domain/content/store.server';
import { PUBLISHED } from './posts';
import { POST_TYPE, clean, getPost, postLabel, postSnapshot, type PostInput } from './posts.server';

/** Blog posts in the editorial workflow: drafts, preview, scheduling, revisions, autosave. */
export const postEditable: Editable = {
  type: POST_TYPE,
  noun: 'cet article',
  area: 'blog',
  adminPath: '/admin/blog',
  publicPath: (id) => `/blog/${encodeURIComponent(id)}`,
  // Its own page and the blog's list (no other page lists posts).
  shownOn: (id) => [pageTag(`/blog/${id}`), pageTag('/blog')],
  async read(db, id) {
    const p = await getPost(db, id);
    return p && { snapshot: { ...postSnapshot(p) }, version: p.version, published: p.status === PUBLISHED, label: postLabel(p) };
  },
  write: (trx, id, snapshot, version) => updateVersioned(trx, 'blog_posts', id, version, clean(snapshot as unknown as PostInput)),
  asPublished: (snapshot) => ({ ...snapshot, status: PUBLISHED }),
  fieldLabels: { image: 'Image de couverture', author: 'Auteur', date: 'Date', status: 'Statut', category: 'Catégorie', title: 'Titre', excerpt: 'Extrait', content: 'Contenu' },
};
