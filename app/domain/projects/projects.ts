import type { Lang } from '~/lib/i18n';

export const PROJECT_STATUSES = ['Planifié', 'En cours', 'Terminé'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export interface ProjectTranslation {
  title: string;
  description: string;
}

export interface Project {
  id: string;
  image: string;
  date: string;
  location: string;
  status: ProjectStatus;
  active: boolean;
  translations: Record<Lang, ProjectTranslation>;
  version: number;
}

/** A project's editable fields: what a form, a draft and a revision hold. */
export type ProjectInput = Omit<Project, 'id' | 'version'>;

export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'Planifié';

/** The id of a project's card on the public projects page (what "Aperçu" scrolls to). */
export const projectAnchor = (id: string) => `projet-${id}`;
