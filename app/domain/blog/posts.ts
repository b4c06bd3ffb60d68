import type { Lang } from '~/lib/i18n';

export const POST_STATUSES = ['Brouillon', 'Publié'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const PUBLISHED: PostStatus = 'Publié';
export const DEFAULT_AUTHOR = 'Admin THV';

export interface PostTranslation {
  category: string;
  title: string;
  excerpt: string;
  content: string;
}

export interface BlogPost {
  id: string;
  image: string;
  author: string;
  date: string;
  status: PostStatus;
  translations: Record<Lang, PostTranslation>;
  version: number;
}
