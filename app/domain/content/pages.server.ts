import type { DB } from '~db/index';
import { DEFAULT_LANG, LANGS, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { findManagedPage, type PageContent, type PageId } from './pages';
import { updateVersioned } from './store.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';
import { getDraft } from '~/domain/revisions/workflow.server';

export const PAGE_TYPE = 'page';

/** A page's content as the editorial workflow keeps it (revisions): images, and texts per language. */
export function pageSnapshot(content: PageContent): Snapshot {
  return { images: content.images, translations: content.texts };
}

/** The content a snapshot (a revision, a draft) holds. */
export function pageContentOf(snapshot: Snapshot): PageContent {
  return { images: (snapshot.images ?? {}) as PageContent['images'], texts: (snapshot.translations ?? {}) as PageContent['texts'] };
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
function localize(pageId: PageId, content: PageContent, lang: Lang) {
  const def = findManagedPage(pageId);
  const fields: Record<string, string> = {};
  for (const field of def?.fields ?? []) {
    if (field.kind === 'image') continue;
    const value = content.texts[lang]?.[field.id]?.trim() ? content.texts[lang][field.id] : (content.texts[DEFAULT_LANG]?.[field.id] ?? '');
    fields[field.id] = field.kind === 'rich' ? sanitizeRichHtml(value) : value;
  }
  return { fields, images: content.images ?? {} };
}

/**
 * A page as its public route shows it. `preview` (an editor or a signed link, ADR 015; the route
 * checks): its draft when it has one, so "Aperçu" shows the draft in the real template; else, and
 * for every visitor, the published content.
 */
export async function getLocalizedPage(db: DB, pageId: PageId, lang: Lang, { preview = false }: { preview?: boolean } = {}) {
  const draft = preview ? await getDraft(db, { type: PAGE_TYPE, id: pageId }) : undefined;
  return localize(pageId, draft ? pageContentOf(draft.snapshot) : await getPageContent(db, pageId), lang);
}

// ---- Back office -------------------------------------------------------------------------------

export interface EditablePage extends PageContent {
  version: number;
}

export async function getEditablePage(db: DB, pageId: PageId): Promise<EditablePage> {
  const row = await db.selectFrom('page_content').select('version').where('page_id', '=', pageId).executeTakeFirst();
  return { ...(await getPageContent(db, pageId)), version: row?.version ?? 0 };
}

/** Only the page's own fields, texts trimmed and rich fields sanitized: what is stored, drafted or published. */
export function cleanPageContent(pageId: PageId, content: PageContent): PageContent {
  const def = findManagedPage(pageId)!;
  const images: Record<string, string> = {};
  const texts = Object.fromEntries(LANGS.map((l) => [l, {} as Record<string, string>])) as PageContent['texts'];
  for (const field of def.fields) {
    if (field.kind === 'image') {
      images[field.id] = (content.images?.[field.id] ?? '').trim();
      continue;
    }
    for (const lang of LANGS) {
      const value = content.texts?.[lang]?.[field.id] ?? '';
      texts[lang][field.id] = field.kind === 'rich' ? sanitizeRichHtml(value) : value.trim();
    }
  }
  return { images, texts };
}

/**
 * Writes a page's content (cleaned) in the caller's transaction if nobody saved it since `version`
 * was read. Version 0: the page has no row yet, and the first write creates it.
 */
export async function writePageContent(trx: DB, pageId: PageId, content: PageContent, version: number): Promise<'ok' | 'conflict'> {
  const clean = cleanPageContent(pageId, content);
  const values = { images: JSON.stringify(clean.images), texts: JSON.stringify(clean.texts) };
  if (version === 0) {
    const inserted = await trx
      .insertInto('page_content')
      .values({ page_id: pageId, ...values, version: 1, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('page_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? 'ok' : 'conflict';
  }
  return (await updateVersioned(trx, 'page_content', pageId, version, values)) === 'ok' ? 'ok' : 'conflict';
}

/** Saves every field of one page (images, and texts per language), with its revision and audit entry. */
export async function savePageContent(db: DB, actor: Actor, pageId: PageId, content: PageContent, version: number): Promise<'ok' | 'conflict'> {
  const def = findManagedPage(pageId)!;
  return db.transaction().execute(async (trx) => {
    if (version > 0) await recordBaseline(trx, { type: PAGE_TYPE, id: pageId }, pageSnapshot(await getPageContent(trx, pageId)));
    if ((await writePageContent(trx, pageId, content, version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'page.update', def.name, { pageId });
    await recordRevision(trx, { type: PAGE_TYPE, id: pageId }, pageSnapshot(cleanPageContent(pageId, content)), actor, 'save');
    return 'ok';
  });
}
