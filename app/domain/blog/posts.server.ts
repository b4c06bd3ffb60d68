import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { BlogPostTable } from '~db/schema';
import { localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { PUBLISHED, type BlogPost, type PostStatus } from './posts';

export function toPost(row: Selectable<BlogPostTable>): BlogPost {
  return {
    id: row.id,
    image: row.image,
    author: row.author,
    date: row.date,
    status: row.status as PostStatus,
    translations: JSON.parse(row.translations),
    version: row.version,
  };
}

function localize(post: BlogPost, lang: Lang) {
  return {
    id: post.id,
    image: post.image,
    author: post.author,
    date: post.date,
    category: localized(post.translations, lang, 'category'),
    title: localized(post.translations, lang, 'title'),
    excerpt: localized(post.translations, lang, 'excerpt'),
  };
}

/** Published posts only, newest first. */
export async function listPublishedPosts(db: DB, lang: Lang) {
  const rows = await db
    .selectFrom('blog_posts')
    .selectAll()
    .where('status', '=', PUBLISHED)
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => localize(toPost(r), lang));
}

/** A published post with its sanitized body, or undefined (drafts are not public). */
export async function getPublishedPost(db: DB, id: string, lang: Lang) {
  const row = await db
    .selectFrom('blog_posts')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', PUBLISHED)
    .executeTakeFirst();
  if (!row) return undefined;
  const post = toPost(row);
  return { ...localize(post, lang), content: sanitizeRichHtml(localized(post.translations, lang, 'content')) };
}

export async function listPublishedPostIds(db: DB) {
  return db.selectFrom('blog_posts').select(['id', 'updated_at']).where('status', '=', PUBLISHED).execute();
}
