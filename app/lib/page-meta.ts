import type { MetaDescriptor } from 'react-router';
import { DEFAULT_LANG, makeI18n, type I18n, type Lang } from './i18n';
import { seoMeta } from './seo';
import type { Messages } from '~/locales/fr';

interface RootData {
  lang: Lang;
  /** Whether the URL chose the language (?lng=) rather than the cookie or the browser. */
  explicitLang?: boolean;
  messages: Messages;
  origin: string;
}

type MatchLike = { id: string; loaderData?: unknown } | undefined;

export function rootData(matches: MatchLike[]): RootData {
  const data = matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  return data ?? { lang: DEFAULT_LANG, messages: {} as Messages, origin: '' };
}

/**
 * Meta tags of a public page: `build` gets the page's translator and returns its title,
 * description and share image; the site name, canonical and hreflang links are added here.
 */
export function pageMeta(
  args: { matches: MatchLike[]; location: { pathname: string } },
  build: (i18n: I18n) => { title: string; description: string; image?: string; type?: 'website' | 'article'; fullTitle?: boolean },
): MetaDescriptor[] {
  const root = rootData(args.matches);
  const i18n = makeI18n(root.lang, root.messages);
  const page = build(i18n);
  const siteName = i18n.t('site.name');
  return seoMeta({
    origin: root.origin,
    path: args.location.pathname,
    lang: root.lang,
    explicitLang: root.explicitLang ?? false,
    siteName,
    title: page.fullTitle ? page.title : `${page.title} | ${siteName}`,
    description: page.description,
    image: page.image,
    type: page.type,
  });
}
