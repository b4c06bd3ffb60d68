import { randomBytes, randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import type { Storage } from '~/lib/storage.server';
import { loadSharp } from '~/lib/sharp.server';
import { IMAGE_TIMEOUT_SECONDS, keyFromUrl, mediaUrl, MAX_IMAGE_PIXELS, type ImageInfo, type ImageVariant } from './media';

/** Every decoding is bounded: pixels declared (checked before, from the header) and time. */
const image = (sharp: Awaited<ReturnType<typeof loadSharp>>, data: Buffer, animated = false) => sharp(data, { animated, limitInputPixels: MAX_IMAGE_PIXELS }).timeout({ seconds: IMAGE_TIMEOUT_SECONDS });

/** Widths of the WebP variants made for every image (never wider than the original). */
export const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920] as const;

export function newStorageKey(extension: string): string {
  return `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.${extension}`;
}

export interface StoredImage {
  id: string;
  key: string;
  url: string;
  width: number;
  height: number;
}

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * Stores an image and its resized WebP variants (orientation applied, metadata removed), then the
 * media row. Files are written first; if anything fails they are removed, so no row lacks a file.
 */
export async function storeImage(db: DB, storage: Storage, name: string, data: Buffer, mime: string): Promise<StoredImage> {
  const sharp = await loadSharp();
  const base = image(sharp, data, mime === 'image/gif').rotate();
  const meta = await base.metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? (meta.pageHeight ?? meta.height);
  if (!width || !height) throw new Error('unreadable image');
  const key = newStorageKey(EXT[mime] ?? 'bin');
  const written: string[] = [];
  try {
    // The original, re-encoded without metadata (EXIF, GPS) in its own format.
    const original = mime === 'image/gif' ? data : await image(sharp, data).rotate().toBuffer();
    await storage.put(key, original, mime);
    written.push(key);
    const variants: ImageVariant[] = [];
    const stem = key.replace(/\.[a-z]+$/, '');
    const widths: number[] = VARIANT_WIDTHS.filter((w) => w < width);
    widths.push(width);
    for (const w of [...new Set(widths)]) {
      const out = await image(sharp, data).rotate().resize({ width: w, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer({ resolveWithObject: true });
      const vkey = `${stem}-w${w}.webp`;
      await storage.put(vkey, out.data, 'image/webp');
      written.push(vkey);
      variants.push({ width: out.info.width, height: out.info.height, key: vkey, size: out.info.size });
    }
    const id = randomUUID();
    await db
      .insertInto('media')
      .values({
        id,
        name,
        storage_key: key,
        mime,
        size: original.length,
        width,
        height,
        variants: JSON.stringify(variants),
        uploaded_at: new Date().toISOString(),
      })
      .execute();
    return { id, key, url: mediaUrl(key), width, height };
  } catch (e) {
    await Promise.all(written.map((k) => storage.delete(k).catch(() => undefined)));
    throw e;
  }
}

/** Looks up stored images by URL and returns what an <img> needs; other URLs pass through as-is. */
export async function resolveImages(db: DB, urls: Array<string | undefined>): Promise<Map<string, ImageInfo>> {
  const result = new Map<string, ImageInfo>();
  const wanted = new Map<string, string>();
  for (const url of urls) {
    if (!url) continue;
    result.set(url, { src: url });
    const key = keyFromUrl(url);
    if (key) wanted.set(key, url);
  }
  if (wanted.size === 0) return result;
  const rows = await db
    .selectFrom('media')
    .select(['storage_key', 'width', 'height', 'variants'])
    .where('storage_key', 'in', [...wanted.keys()])
    .execute();
  for (const row of rows) {
    const url = wanted.get(row.storage_key)!;
    const variants = JSON.parse(row.variants) as ImageVariant[];
    const largest = variants.at(-1);
    result.set(url, {
      src: largest ? mediaUrl(largest.key) : url,
      width: row.width ?? undefined,
      height: row.height ?? undefined,
      srcSet: variants.length ? variants.map((v) => `${mediaUrl(v.key)} ${v.width}w`).join(', ') : undefined,
    });
  }
  return result;
}

export async function resolveImage(db: DB, url: string | undefined): Promise<ImageInfo | undefined> {
  if (!url) return undefined;
  return (await resolveImages(db, [url])).get(url);
}
