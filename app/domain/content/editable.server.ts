import type { Editable } from '~/domain/revisions/editables.server';
import { MANAGED_PAGES, findManagedPage, type PageContent, type PageId } from './pages';
import { PAGE_TYPE, getEditablePage, pageSnapshot } from './pages.server';
import { updateVersioned } from './store.server';

/** The managed pages in the editorial workflow: revisions, comparison and restore (ADR 015). */
export const pageEditable: Editable = {
  type: PAGE_TYPE,
  noun: 'cette page',
  area: 'pages',
  adminPath: '/admin/pages/edit',
  async read(db, id) {
    const def = findManagedPage(id);
    if (!def) return undefined;
    const page = await getEditablePage(db, def.id as PageId);
    return { snapshot: pageSnapshot(page), version: page.version, published: true, label: def.name };
  },
  // Snapshots hold what a save stored (already sanitized): written back as they are.
  write: (trx, id, snapshot, version) => {
    const content = { images: snapshot.images, texts: snapshot.translations } as PageContent;
    return updateVersioned(trx, 'page_content', id, version, { images: JSON.stringify(content.images), texts: JSON.stringify(content.texts) });
  },
  asPublished: (snapshot) => snapshot,
  fieldLabels: Object.fromEntries(MANAGED_PAGES.flatMap((p) => p.fields.map((f) => [f.id, f.label]))),
};
