import type { Editable } from '~/domain/revisions/editables.server';
import { updateVersioned } from '~/domain/content/store.server';
import { PROJECT_TYPE, clean, getProject, projectLabel, projectSnapshot, type ProjectInput } from './projects.server';

/** Projects in the editorial workflow: revisions, comparison and restore (ADR 015). */
export const projectEditable: Editable = {
  type: PROJECT_TYPE,
  noun: 'ce projet',
  area: 'actions',
  adminPath: '/admin/actions',
  async read(db, id) {
    const p = await getProject(db, id);
    return p && { snapshot: projectSnapshot(p), version: p.version, published: p.active, label: projectLabel(p) };
  },
  write: (trx, id, snapshot, version) => updateVersioned(trx, 'projects', id, version, clean(snapshot as unknown as ProjectInput)),
  asPublished: (snapshot) => ({ ...snapshot, active: true }),
  fieldLabels: { image: 'Image', date: 'Date', location: 'Lieu', status: 'Statut', active: 'Affiché sur le site', title: 'Titre', description: 'Description' },
};
