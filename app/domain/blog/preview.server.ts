import type { DB } from '~db/index';
import { localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { getDraft } from '~/domain/revisions/workflow.server';
import type { PostInput } from './posts.server';
import { POST_TYPE, getPost, postSnapshot } from './posts.server';

/**
 * What "Aperçu" shows of a post: its draft when it has one, else the post as saved (published or
 * not), in the public page's shape. Only for an editor or a signed preview link (the route checks).
 */
export async function previewPost(db: DB, id: string, lang: Lang) {
  const live = await getPost(db, id);
  if (!live) return undefined;
  const draft = await getDraft(db, { type: POST_TYPE, id });
  const p = (draft?.snapshot ?? postSnapshot(live)) as unknown as PostInput;
  return {
    id,
    image: p.image,
    author: p.author,
    date: p.date,
    category: localized(p.translations, lang, 'category'),
    title: localized(p.translations, lang, 'title'),
    excerpt: localized(p.translations, lang, 'excerpt'),
    content: sanitizeRichHtml(localized(p.translations, lang, 'content')),
    isDraft: Boolean(draft),
    publishAt: draft?.publishAt ?? null,
  };
}
