import type { DB } from '~db/index';
import { localized, type Lang } from '~/lib/i18n';
import { langUrl } from '~/lib/seo';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { feedPath } from './feed';
import { publishedPostRows, toPost } from './posts.server';

/** Entries in a feed: the newest published posts. */
export const FEED_SIZE = 50;


const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
// Characters XML 1.0 forbids (control characters) never reach the feed.
// eslint-disable-next-line no-control-regex
const text = (s: string) => xml(s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));

/**
 * The Atom feed (RFC 4287) of published posts in one language. Drafts and scheduled posts are
 * not published rows, so they are not in it until they are.
 */
export async function blogFeed(db: DB, lang: Lang, origin: string, titles: { site: string; blog: string }): Promise<string> {
  const rows = await publishedPostRows(db, FEED_SIZE);
  const updated = rows.reduce((max, r) => (r.updated_at > max ? r.updated_at : max), '1970-01-01T00:00:00.000Z');
  const entries = rows.map((row) => {
    const post = toPost(row);
    const url = langUrl(origin, `/blog/${encodeURIComponent(post.id)}`, lang);
    return [
      '  <entry>',
      `    <title>${text(localized(post.translations, lang, 'title'))}</title>`,
      `    <id>${text(url)}</id>`,
      `    <link rel="alternate" type="text/html" href="${text(url)}"/>`,
      `    <published>${post.date}T00:00:00Z</published>`,
      `    <updated>${row.updated_at}</updated>`,
      `    <author><name>${text(post.author)}</name></author>`,
      `    <category term="${text(localized(post.translations, lang, 'category'))}"/>`,
      `    <summary>${text(localized(post.translations, lang, 'excerpt'))}</summary>`,
      `    <content type="html">${text(sanitizeRichHtml(localized(post.translations, lang, 'content')))}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${lang}">`,
    `  <title>${text(titles.blog)}</title>`,
    `  <id>${text(langUrl(origin, '/blog', lang))}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${text(origin + feedPath(lang))}"/>`,
    `  <link rel="alternate" type="text/html" href="${text(langUrl(origin, '/blog', lang))}"/>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${text(titles.site)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
