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

export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'Planifié';
