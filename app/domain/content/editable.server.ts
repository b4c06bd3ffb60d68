import type { Editable } from '~/domain/revisions/editables.server';
import { pageTag } from '~/lib/cache-tags';
import { MANAGED_PAGES, findManagedPage, type PageId } from './pages';
import { PAGE_TYPE, getEditablePage, pageContentOf, pageSnapshot, writePageContent } from './pages.server';

/**
 * The managed pages in the editorial workflow (ADR 015): drafts, preview on their public route,
 * scheduling, autosave, revisions, comparison and restore. A page is always published.
 */
export const pageEditable: Editable = {
  type: PAGE_TYPE,
  noun: 'cette page',
  area: 'pages',
  adminPath: '/admin/pages/edit',
  publicPath: (id) => findManagedPage(id)?.path ?? '/',
  // A page's fields show on its own route only.
  shownOn: (id) => [pageTag(findManagedPage(id)?.path ?? '/')],
  async read(db, id) {
    const def = findManagedPage(id);
    if (!def) return undefined;
    const page = await getEditablePage(db, def.id as PageId);
    return { snapshot: pageSnapshot(page), version: page.version, published: true, label: def.name };
  },
  // A draft holds the form as typed: written cleaned (rich fields sanitized), like a save.
  write: async (trx, id, snapshot, version) => (findManagedPage(id) ? writePageContent(trx, id as PageId, pageContentOf(snapshot), version) : 'notFound'),
  asPublished: (snapshot) => snapshot,
  fieldLabels: Object.fromEntries(MANAGED_PAGES.flatMap((p) => p.fields.map((f) => [f.id, f.label]))),
};
