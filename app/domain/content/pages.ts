import type { Lang } from '~/lib/i18n';

/** Kinds of editable field: a plain line of text, rich HTML (sanitized), or an image URL. */
export type FieldKind = 'text' | 'rich' | 'image';

export interface FieldDef {
  id: string;
  label: string;
  kind: FieldKind;
}

export interface ManagedPage {
  id: string;
  name: string;
  path: string;
  fields: FieldDef[];
}

const images = (ids: string[], label: (i: number) => string): FieldDef[] =>
  ids.map((id, i) => ({ id, label: label(i), kind: 'image' as const }));

/** The pages the back office's page editor edits, the legal pages (privacy, terms) among them. */
export const MANAGED_PAGES: ManagedPage[] = [
  {
    id: 'home',
    name: 'Accueil',
    path: '/',
    fields: [
      { id: 'heroTitle', label: 'Titre principal', kind: 'text' },
      { id: 'heroSubtitle', label: 'Sous-titre', kind: 'rich' },
      ...images(['heroImage', 'heroImage2', 'heroImage3', 'heroImage4', 'heroImage5'], (i) => `Image du carrousel ${i + 1}`),
      ...images(['actionsPreviewImage1', 'actionsPreviewImage2', 'actionsPreviewImage3'], (i) => `Image d'action ${i + 1}`),
    ],
  },
  {
    id: 'about',
    name: 'À propos',
    path: '/a-propos',
    fields: [
      { id: 'title', label: 'Titre', kind: 'text' },
      { id: 'content', label: 'Contenu', kind: 'rich' },
      { id: 'founderImage', label: 'Photo du fondateur', kind: 'image' },
    ],
  },
  {
    id: 'missions',
    name: 'Missions',
    path: '/missions',
    fields: [
      { id: 'title', label: 'Titre', kind: 'text' },
      { id: 'introduction', label: 'Introduction', kind: 'rich' },
      { id: 'mission1Image', label: 'Image Santé', kind: 'image' },
      { id: 'mission2Image', label: 'Image Éducation', kind: 'image' },
      { id: 'mission3Image', label: 'Image Alimentation', kind: 'image' },
      { id: 'mission4Image', label: 'Image Autonomisation', kind: 'image' },
    ],
  },
  {
    id: 'contact',
    name: 'Contact',
    path: '/contact',
    fields: [
      { id: 'title', label: 'Titre', kind: 'text' },
      { id: 'address', label: 'Adresse', kind: 'text' },
    ],
  },
  {
    id: 'privacy',
    name: 'Politique de confidentialité',
    path: '/confidentialite',
    fields: [
      { id: 'title', label: 'Titre', kind: 'text' },
      { id: 'content', label: 'Contenu', kind: 'rich' },
    ],
  },
  {
    id: 'terms',
    name: 'Mentions légales',
    path: '/mentions-legales',
    fields: [
      { id: 'title', label: 'Titre', kind: 'text' },
      { id: 'content', label: 'Contenu', kind: 'rich' },
    ],
  },
];

export type PageId = 'home' | 'about' | 'missions' | 'contact' | 'privacy' | 'terms';

export function findManagedPage(id: string): ManagedPage | undefined {
  return MANAGED_PAGES.find((p) => p.id === id);
}

/** Stored content of one page: image URLs, and text values per language. */
export interface PageContent {
  images: Record<string, string>;
  texts: Record<Lang, Record<string, string>>;
}
