import type { DB } from '~db/index';
import { DEFAULT_LANG, LANGS, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { findManagedPage, type PageContent, type PageId } from './pages';

export async function getPageContent(db: DB, pageId: PageId | string): Promise<PageContent> {
  const row = await db
    .selectFrom('page_content')
    .select(['images', 'texts'])
    .where('page_id', '=', pageId)
    .executeTakeFirst();
  const texts = (row ? JSON.parse(row.texts) : {}) as Partial<Record<Lang, Record<string, string>>>;
  return {
    images: row ? (JSON.parse(row.images) as Record<string, string>) : {},
    texts: Object.fromEntries(LANGS.map((l) => [l, texts[l] ?? {}])) as PageContent['texts'],
  };
}

/**
 * The page's fields for one language, French where the language's value is empty; rich fields are
 * sanitized again on the way out (defence in depth: they were sanitized on save).
 */
export async function getLocalizedPage(db: DB, pageId: PageId, lang: Lang) {
  const content = await getPageContent(db, pageId);
  const def = findManagedPage(pageId);
  const fields: Record<string, string> = {};
  for (const field of def?.fields ?? []) {
    if (field.kind === 'image') continue;
    const value = content.texts[lang][field.id]?.trim() ? content.texts[lang][field.id] : (content.texts[DEFAULT_LANG][field.id] ?? '');
    fields[field.id] = field.kind === 'rich' ? sanitizeRichHtml(value) : value;
  }
  return { fields, images: content.images };
}
