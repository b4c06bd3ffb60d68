import { blogFeed } from '~/domain/blog/feed.server';
import { DEFAULT_LANG, LANGS, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { db, runtime } from '~/lib/runtime.server';
import type { Route } from './+types/blog-feed';

/** /blog/feed.xml?lng=fr|en|es: the Atom feed of published posts in that language. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get('lng') ?? DEFAULT_LANG;
  const lang: Lang = (LANGS as readonly string[]).includes(asked) ? (asked as Lang) : DEFAULT_LANG;
  const origin = runtime().publicUrl ?? url.origin;
  const messages = messagesFor(lang);
  const body = await blogFeed(db(), lang, origin, { site: messages.site.name, blog: messages.blog.name });
  return new Response(body, { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' } });
}
