/**
 * Languages and their addresses, without React: shared by the pages, the server and the browser's
 * small scripts (app/enhance).
 */

/** Languages of the public site. French is the default and the fallback for empty content. */
export const LANGS = ['fr', 'en', 'es'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'fr';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/**
 * Every public page has one address per language (ADR 026): French, the default, at its own path
 * (`/a-propos`), the others under their code (`/en/a-propos`, `/es`). The address alone names the
 * language, so a shared cache or a CDN keys on it without cookies or Accept-Language.
 */
const LANG_PREFIX = new RegExp(`^/(${LANGS.filter((l) => l !== DEFAULT_LANG).join('|')})(?=/|$)`);

/** The language an address names: its prefix, else French. */
export function langOfPath(pathname: string): Lang {
  return (LANG_PREFIX.exec(pathname)?.[1] as Lang | undefined) ?? DEFAULT_LANG;
}

/** Whether the address names its language by a prefix (`/en…`, `/es…`). */
export const hasLangPrefix = (pathname: string): boolean => LANG_PREFIX.test(pathname);

/** The page's path without its language prefix: `/en/blog/3` → `/blog/3`, `/es` → `/`. */
export function pathWithoutLang(pathname: string): string {
  return pathname.replace(LANG_PREFIX, '') || '/';
}

/**
 * A site page's address in a language: `sitePath('en', '/a-propos')` → `/en/a-propos`,
 * `sitePath('en', '/')` → `/en`, French unchanged. The path may carry a query or a fragment.
 */
export function sitePath(lang: Lang, path: string): string {
  if (lang === DEFAULT_LANG) return path;
  return path === '/' || path.startsWith('/?') || path.startsWith('/#') ? `/${lang}${path.slice(1)}` : `/${lang}${path}`;
}


/** A site page's absolute address in a language (`origin` empty: the path alone), for mails and letters. */
export function siteUrl(origin: string | undefined, lang: Lang, path: string): string {
  return `${origin ?? ''}${sitePath(lang, path)}`;
}
