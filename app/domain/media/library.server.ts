import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { Selectable } from 'kysely';
import type { MediaTable } from '~db/schema';
import { MANAGED_PAGES } from '~/domain/content/pages';
import type { Storage } from '~/lib/storage.server';
import { newStorageKey, storeImage } from './images.server';
import { PDF_TYPE, kindOf, mediaUrl, type ImageVariant, type MediaItem, type MediaKind } from './media';

/** The library: listing, PDF storage, deletion with its files, and where a file is used. */

export function toItem(row: Selectable<MediaTable>): MediaItem {
  const variants = JSON.parse(row.variants) as ImageVariant[];
  const kind = kindOf(row.mime);
  return {
    id: row.id,
    name: row.name,
    url: mediaUrl(row.storage_key),
    thumbUrl: kind === 'pdf' ? null : mediaUrl((variants[0] ?? { key: row.storage_key }).key),
    mime: row.mime,
    kind,
    size: row.size,
    width: row.width,
    height: row.height,
    uploadedAt: row.uploaded_at,
  };
}

/** Newest first by upload time; `kind` keeps only images or only PDFs. */
export async function listMedia(db: DB, kind?: MediaKind): Promise<MediaItem[]> {
  let q = db.selectFrom('media').selectAll().orderBy('uploaded_at', 'desc').orderBy('id', 'desc');
  if (kind === 'pdf') q = q.where('mime', '=', PDF_TYPE);
  if (kind === 'image') q = q.where('mime', '!=', PDF_TYPE);
  return (await q.execute()).map(toItem);
}

export async function getMedia(db: DB, id: string): Promise<MediaItem | undefined> {
  const row = await db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toItem(row);
}

/** The name shown in the list: the upload's base name, without path or control characters. */
export function displayName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || 'fichier';
}

/** Stores a PDF under a generated name, then its row; the file is removed again if the row fails. */
export async function storePdf(db: DB, storage: Storage, name: string, data: Buffer): Promise<string> {
  const key = newStorageKey('pdf');
  await storage.put(key, data, PDF_TYPE);
  try {
    const id = randomUUID();
    await db
      .insertInto('media')
      .values({ id, name, storage_key: key, mime: PDF_TYPE, size: data.length, width: null, height: null, variants: '[]', uploaded_at: new Date().toISOString() })
      .execute();
    return id;
  } catch (e) {
    await storage.delete(key).catch(() => undefined);
    throw e;
  }
}

/** Stores a checked file (images get their WebP variants) and returns it as the list shows it. */
export async function storeMedia(db: DB, storage: Storage, name: string, data: Buffer, mime: string): Promise<MediaItem> {
  const id = mime === PDF_TYPE ? await storePdf(db, storage, name, data) : (await storeImage(db, storage, name, data, mime)).id;
  return (await getMedia(db, id))!;
}

/**
 * Deletes a file: the row first (so no row ever points at a missing file), then the original and
 * every variant. Returns what was deleted, or undefined when it no longer exists.
 */
export async function deleteMedia(db: DB, storage: Storage, id: string): Promise<MediaItem | undefined> {
  const row = await db.deleteFrom('media').where('id', '=', id).returningAll().executeTakeFirst();
  if (!row) return undefined;
  const keys = [row.storage_key, ...(JSON.parse(row.variants) as ImageVariant[]).map((v) => v.key)];
  await Promise.all(keys.map((k) => storage.delete(k)));
  return toItem(row);
}

/** Where a file is used: 'la page Accueil', 'le projet « … »', 'les paramètres du site'… */
export type Usage = string;

interface Holder {
  label: string;
  text: string;
}

function firstTitle(t: Record<string, { title?: string }> | undefined): string {
  return t?.fr?.title || t?.en?.title || t?.es?.title || '';
}

function titleOf(translations: string): string {
  try {
    return firstTitle(JSON.parse(translations));
  } catch {
    return '';
  }
}

/** How a draft's item is named, by its type (`drafts.entity_type`, ADR 015): "le brouillon de l’article « … »". */
const DRAFT_OF: Record<string, string> = { post: 'de l’article', campaign: 'de la campagne', project: 'du projet', partner: 'du partenaire' };

function draftLabel(type: string, id: string, snapshot: string, pageName: (id: string) => string): string {
  if (type === 'page') return `le brouillon de la page ${pageName(id)}`;
  let name = '';
  try {
    const s = JSON.parse(snapshot) as { name?: string; translations?: Record<string, { title?: string }> };
    name = s.name || firstTitle(s.translations);
  } catch {
    // An unreadable snapshot is still named by its id.
  }
  return `le brouillon ${DRAFT_OF[type] ?? `(${type})`} « ${name || id} »`;
}

/**
 * Everything that may hold a media URL, with the words that name it: live content, and drafts
 * (a file used only by a draft would be missing when the draft is published).
 */
async function holders(db: DB): Promise<Holder[]> {
  const [pages, projects, posts, partners, campaigns, drafts, settings] = await Promise.all([
    db.selectFrom('page_content').select(['page_id', 'images', 'texts']).execute(),
    db.selectFrom('projects').select(['id', 'image', 'translations']).execute(),
    db.selectFrom('blog_posts').select(['id', 'image', 'translations']).execute(),
    db.selectFrom('partners').select(['id', 'name', 'logo_url']).execute(),
    db.selectFrom('campaigns').select(['id', 'slug', 'image', 'translations']).execute(),
    db.selectFrom('drafts').select(['entity_type', 'entity_id', 'snapshot']).execute(),
    db.selectFrom('settings').select(['key', 'value']).execute(),
  ]);
  const pageName = (id: string) => MANAGED_PAGES.find((p) => p.id === id)?.name ?? id;
  return [
    ...pages.map((p) => ({ label: `la page ${pageName(p.page_id)}`, text: `${p.images}\n${p.texts}` })),
    ...projects.map((p) => ({ label: `le projet « ${titleOf(p.translations) || p.id} »`, text: `${p.image}\n${p.translations}` })),
    ...posts.map((p) => ({ label: `l’article « ${titleOf(p.translations) || p.id} »`, text: `${p.image}\n${p.translations}` })),
    ...partners.map((p) => ({ label: `le partenaire « ${p.name} »`, text: p.logo_url })),
    ...campaigns.map((c) => ({ label: `la campagne « ${titleOf(c.translations) || c.slug} »`, text: `${c.image}\n${c.translations}` })),
    ...drafts.map((d) => ({ label: draftLabel(d.entity_type, d.entity_id, d.snapshot, pageName), text: d.snapshot })),
    ...settings
      .filter((s) => !s.key.startsWith('seed:'))
      .map((s) => ({ label: s.key === 'site' ? 'les paramètres du site' : `les paramètres (${s.key})`, text: s.value })),
  ];
}

/** For each file (by id), where it is used; files used nowhere are absent. */
export async function mediaUsage(db: DB, items: MediaItem[]): Promise<Record<string, Usage[]>> {
  if (items.length === 0) return {};
  const all = await holders(db);
  const result: Record<string, Usage[]> = {};
  for (const item of items) {
    // The original's URL, and its variants' (same stem): `/media/abc-123` matches both.
    const stem = item.url.replace(/\.[a-z]+$/, '');
    const used = all.filter((h) => h.text.includes(item.url) || h.text.includes(`${stem}-w`)).map((h) => h.label);
    if (used.length) result[item.id] = used;
  }
  return result;
}
