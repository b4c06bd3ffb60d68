import type { Editable } from '~/domain/revisions/editables.server';
import { updateVersioned } from '~/domain/content/store.server';
import { projectAnchor, type ProjectInput } from './projects';
import { PROJECT_TYPE, clean, getProject, projectLabel, projectSnapshot } from './projects.server';

/**
 * Projects in the editorial workflow (ADR 015): drafts of an active (published) project, preview on
 * the public projects page, scheduled publication, autosave, revisions. The page lists every
 * project: the preview names the project in its query and points at its card.
 */
export const projectEditable: Editable = {
  type: PROJECT_TYPE,
  noun: 'ce projet',
  area: 'actions',
  adminPath: '/admin/actions',
  publicPath: (id) => `/nos-actions?projet=${encodeURIComponent(id)}#${encodeURIComponent(projectAnchor(id))}`,
  async read(db, id) {
    const p = await getProject(db, id);
    return p && { snapshot: projectSnapshot(p), version: p.version, published: p.active, label: projectLabel(p) };
  },
  write: (trx, id, snapshot, version) => updateVersioned(trx, 'projects', id, version, clean(snapshot as unknown as ProjectInput)),
  asPublished: (snapshot) => ({ ...snapshot, active: true }),
  fieldLabels: { image: 'Image', date: 'Date', location: 'Lieu', status: 'Statut', active: 'Affiché sur le site', title: 'Titre', description: 'Description' },
};
