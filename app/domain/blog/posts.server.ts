import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import type { BlogPostTable } from '~db/schema';
import { localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { PUBLISHED, type BlogPost, type PostStatus, type PostTranslation } from './posts';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Paged } from '~/domain/content/forms';
import { contains, newId, pageOf, updateVersioned } from '~/domain/content/store.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { deleteHistory, recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';

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

/** Published posts' rows, newest first (the blog, the feed). */
export function publishedPostRows(db: DB, limit?: number) {
  return db
    .selectFrom('blog_posts')
    .selectAll()
    .where('status', '=', PUBLISHED)
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .$if(limit !== undefined, (qb) => qb.limit(limit!))
    .execute();
}

/** Published posts only, newest first. */
export async function listPublishedPosts(db: DB, lang: Lang) {
  return (await publishedPostRows(db)).map((r) => localize(toPost(r), lang));
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

// ---- Back office -------------------------------------------------------------------------------

export interface PostInput {
  image: string;
  author: string;
  date: string;
  status: PostStatus;
  translations: Record<Lang, PostTranslation>;
}

/** The stored columns of a post's editable fields (texts trimmed, rich text sanitized). */
export function clean(input: PostInput) {
  const translations = Object.fromEntries(
    Object.entries(input.translations).map(([lang, t]) => [
      lang,
      { category: t.category.trim(), title: t.title.trim(), excerpt: t.excerpt.trim(), content: sanitizeRichHtml(t.content) },
    ]),
  );
  return { image: input.image, author: input.author, date: input.date, status: input.status, translations: JSON.stringify(translations) };
}

/** A post's editable fields as the editorial workflow keeps them (revisions, drafts). */
export function postSnapshot(p: BlogPost): Snapshot {
  const input: PostInput = { image: p.image, author: p.author, date: p.date, status: p.status, translations: p.translations };
  return { ...input };
}

export const POST_TYPE = 'post';

export function postLabel(p: BlogPost): string {
  return p.translations.fr?.title || p.id;
}

/** Every post (drafts too), newest first, a page at a time; searched in author and texts, filtered by status. */
export async function listPostsPage(db: DB, { q, page, status }: { q: string; page: number; status?: PostStatus }): Promise<Paged<BlogPost>> {
  const base = db
    .selectFrom('blog_posts')
    .$if(q !== '', (qb) => qb.where((eb) => eb.or([contains('author', q), contains('translations', q)])))
    .$if(status !== undefined, (qb) => qb.where('status', '=', status!));
  return pageOf(
    page,
    q,
    async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    async (limit, offset) =>
      (await base.selectAll().orderBy('date', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toPost),
  );
}

export async function getPost(db: DB, id: string): Promise<BlogPost | undefined> {
  const row = await db.selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPost(row) : undefined;
}

export async function createPost(db: DB, actor: Actor, input: PostInput): Promise<BlogPost> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const row = await trx
      .insertInto('blog_posts')
      .values({ id: newId(), ...clean(input), version: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const post = toPost(row);
    await audit(trx, actor, 'post.create', postLabel(post), { id: post.id, status: post.status });
    await recordRevision(trx, { type: POST_TYPE, id: post.id }, postSnapshot(post), actor, 'create');
    return post;
  });
}

/** A post written before revisions existed keeps its state as its first revision. */
async function baseline(trx: DB, id: string): Promise<void> {
  const before = await getPost(trx, id);
  if (before) await recordBaseline(trx, { type: POST_TYPE, id }, postSnapshot(before));
}

export async function updatePost(db: DB, actor: Actor, id: string, input: PostInput, version: number): Promise<{ post: BlogPost } | { error: 'notFound' | 'conflict' }> {
  return db.transaction().execute(async (trx) => {
    await baseline(trx, id);
    const result = await updateVersioned(trx, 'blog_posts', id, version, clean(input));
    if (result !== 'ok') return { error: result };
    const post = toPost(await trx.selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    await audit(trx, actor, 'post.update', postLabel(post), { id, status: post.status });
    await recordRevision(trx, { type: POST_TYPE, id }, postSnapshot(post), actor, 'save');
    return { post };
  });
}

/** The list's Brouillon/Publié switch: changes the status only, with the same version check. */
export async function setPostStatus(db: DB, actor: Actor, id: string, status: PostStatus, version: number): Promise<{ post: BlogPost } | { error: 'notFound' | 'conflict' }> {
  return db.transaction().execute(async (trx) => {
    await baseline(trx, id);
    const result = await updateVersioned(trx, 'blog_posts', id, version, { status });
    if (result !== 'ok') return { error: result };
    const post = toPost(await trx.selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    await audit(trx, actor, 'post.status', postLabel(post), { id, status });
    await recordRevision(trx, { type: POST_TYPE, id }, postSnapshot(post), actor, status === PUBLISHED ? 'publish' : 'save');
    return { post };
  });
}

export async function deletePost(db: DB, actor: Actor, id: string): Promise<BlogPost | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('blog_posts').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    const post = toPost(row);
    await audit(trx, actor, 'post.delete', postLabel(post), { id });
    await deleteHistory(trx, { type: POST_TYPE, id });
    return post;
  });
}
