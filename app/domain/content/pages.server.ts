import type { DB } from '~db/index';
import { DEFAULT_LANG, LANGS, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { findManagedPage, type PageContent, type PageId } from './pages';
import { updateVersioned } from './store.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';

export const PAGE_TYPE = 'page';

/** A page's content as the editorial workflow keeps it (revisions): images, and texts per language. */
export function pageSnapshot(content: PageContent): Snapshot {
  return { images: content.images, translations: content.texts };
}

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

// ---- Back office -------------------------------------------------------------------------------

export interface EditablePage extends PageContent {
  version: number;
}

export async function getEditablePage(db: DB, pageId: PageId): Promise<EditablePage> {
  const row = await db.selectFrom('page_content').select('version').where('page_id', '=', pageId).executeTakeFirst();
  return { ...(await getPageContent(db, pageId)), version: row?.version ?? 0 };
}

/**
 * Saves every field of one page (images, and texts per language; rich fields sanitized), if
 * nobody saved it since `version` was read. Version 0: the page has no row yet.
 */
export async function savePageContent(db: DB, actor: Actor, pageId: PageId, content: PageContent, version: number): Promise<'ok' | 'conflict'> {
  const def = findManagedPage(pageId)!;
  const images: Record<string, string> = {};
  const texts = Object.fromEntries(LANGS.map((l) => [l, {} as Record<string, string>])) as PageContent['texts'];
  for (const field of def.fields) {
    if (field.kind === 'image') {
      images[field.id] = (content.images[field.id] ?? '').trim();
      continue;
    }
    for (const lang of LANGS) {
      const value = content.texts[lang]?.[field.id] ?? '';
      texts[lang][field.id] = field.kind === 'rich' ? sanitizeRichHtml(value) : value.trim();
    }
  }
  const values = { images: JSON.stringify(images), texts: JSON.stringify(texts) };
  return db.transaction().execute(async (trx) => {
    if (version > 0) await recordBaseline(trx, { type: PAGE_TYPE, id: pageId }, pageSnapshot(await getPageContent(trx, pageId)));
    if (version === 0) {
      const inserted = await trx
        .insertInto('page_content')
        .values({ page_id: pageId, ...values, version: 1, updated_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('page_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return 'conflict';
    } else {
      const result = await updateVersioned(trx, 'page_content', pageId, version, values);
      if (result !== 'ok') return 'conflict';
    }
    await audit(trx, actor, 'page.update', def.name, { pageId });
    await recordRevision(trx, { type: PAGE_TYPE, id: pageId }, pageSnapshot({ images, texts }), actor, 'save');
    return 'ok';
  });
}
