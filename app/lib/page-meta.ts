import type { MetaDescriptor } from 'react-router';
import { DEFAULT_LANG, makeI18n, messagesOf, type I18n, type Lang } from './i18n';
import { seoMeta } from './seo';
import type { Messages } from '~/locales/fr';

interface RootData {
  lang: Lang;
  /** Sent by the root loader to pages that hydrate only; `rootData` fills them in for the others. */
  messages?: Messages;
  origin: string;
}

type MatchLike = { id: string; loaderData?: unknown } | undefined;

export function rootData(matches: MatchLike[]): RootData & { messages: Messages } {
  const data = matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  return data ? { ...data, messages: messagesOf(data.lang, data.messages) } : { lang: DEFAULT_LANG, messages: {} as Messages, origin: '' };
}

/**
 * A public page's headers are its loader's (a preview's `no-store`, ADR 015) and its action's (a
 * form's `Retry-After`): `export const headers = pageHeaders`.
 */
export function pageHeaders({ loaderHeaders, actionHeaders }: { loaderHeaders: Headers; actionHeaders: Headers }): Headers {
  const headers = new Headers(loaderHeaders);
  actionHeaders.forEach((value, name) => headers.set(name, value));
  return headers;
}

/** `<meta name="robots">` for a preview (the X-Robots-Tag header says it too). */
export const previewRobots = (preview: boolean | undefined): MetaDescriptor[] => (preview ? [{ name: 'robots', content: 'noindex, nofollow' }] : []);

/**
 * Meta tags of a public page: `build` gets the page's translator and returns its title,
 * description and share image; the site name, canonical and hreflang links are added here. A
 * `preview` (a draft shown by "Aperçu", ADR 015) is titled so and never indexed.
 */
export function pageMeta(
  args: { matches: MatchLike[]; location: { pathname: string } },
  build: (i18n: I18n) => { title: string; description: string; image?: string; type?: 'website' | 'article'; fullTitle?: boolean; preview?: boolean },
): MetaDescriptor[] {
  const root = rootData(args.matches);
  const i18n = makeI18n(root.lang, root.messages);
  const page = build(i18n);
  const siteName = i18n.t('site.name');
  const title = page.fullTitle ? page.title : `${page.title} | ${siteName}`;
  const tags = seoMeta({
    origin: root.origin,
    path: args.location.pathname,
    lang: root.lang,
    siteName,
    title: page.preview ? `${i18n.t('editorial.previewTitle')} : ${title}` : title,
    description: page.description,
    image: page.image,
    type: page.type,
  });
  return [...tags, ...previewRobots(page.preview)];
}
