import type { Lang } from '~/lib/i18n';
import { rootData } from '~/lib/page-meta';

export function feedPath(lang: Lang): string {
  return `/blog/feed.xml?lng=${lang}`;
}

/** A `<link>` tag as a route's `meta` returns it (one of React Router's MetaDescriptor shapes, named here: the domain imports no react-router). */
export type FeedLink = { tagName: 'link'; rel: 'alternate'; type: 'application/atom+xml'; title: string; href: string };

/** `<link rel="alternate" type="application/atom+xml">` to the feed in the page's language (blog pages). */
export function feedLink(matches: Parameters<typeof rootData>[0]): FeedLink {
  const root = rootData(matches);
  return { tagName: 'link', rel: 'alternate', type: 'application/atom+xml', title: root.messages.blog?.name ?? 'Blog', href: `${root.origin}${feedPath(root.lang)}` };
}
