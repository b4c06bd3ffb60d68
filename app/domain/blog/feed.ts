import type { MetaDescriptor } from 'react-router';
import type { Lang } from '~/lib/i18n';
import { rootData } from '~/lib/page-meta';

export function feedPath(lang: Lang): string {
  return `/blog/feed.xml?lng=${lang}`;
}

/** `<link rel="alternate" type="application/atom+xml">` to the feed in the page's language (blog pages). */
export function feedLink(matches: Parameters<typeof rootData>[0]): MetaDescriptor {
  const root = rootData(matches);
  return { tagName: 'link', rel: 'alternate', type: 'application/atom+xml', title: root.messages.blog?.name ?? 'Blog', href: `${root.origin}${feedPath(root.lang)}` };
}
