import type { MetaDescriptor } from 'react-router';
import { DEFAULT_LANG, LANGS, LOCALES, pathWithoutLang, sitePath, type Lang } from './i18n';

export interface SeoInput {
  origin: string;
  path: string;
  lang: Lang;
  title: string;
  description: string;
  siteName: string;
  image?: string;
  type?: 'website' | 'article';
}

/** A page's absolute address in a language (`path` with or without its language prefix). */
export function langUrl(origin: string, path: string, lang: Lang): string {
  return `${origin}${sitePath(lang, pathWithoutLang(path))}`;
}

/**
 * Title, description, canonical URL, hreflang alternates (one per language, plus x-default) and
 * Open Graph tags. Every language variant is its own address (/en/…, ADR 026), so the set is
 * reciprocal; the French one, the default, is the x-default. Each page is its own canonical, so a
 * canonical never points across languages.
 */
export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const { origin, path, lang, title, description, siteName } = input;
  const image = input.image ? (input.image.startsWith('http') ? input.image : `${origin}${input.image}`) : undefined;
  const canonical = langUrl(origin, path, lang);
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    ...LANGS.map((l) => ({ tagName: 'link', rel: 'alternate', hrefLang: l, href: langUrl(origin, path, l) })),
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: langUrl(origin, path, DEFAULT_LANG) },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: siteName },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    { property: 'og:locale', content: LOCALES[lang].replace('-', '_') },
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
  ];
  if (image) tags.push({ property: 'og:image', content: image });
  return tags;
}

/** Strips tags from sanitized HTML for a meta description. */
export function plainText(html: string, max = 160): string {
  const text = html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
