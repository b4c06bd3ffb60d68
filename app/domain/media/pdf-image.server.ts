import type { Storage } from '~/lib/storage.server';
import { loadSharp } from '~/lib/sharp.server';
import { keyFromUrl } from './media';

/** Image files a PDF can show: pdfkit embeds PNG and JPEG as they are; WebP, GIF and SVG are converted to PNG first. */
const AS_IS = /\.(png|jpe?g)$/i;
const CONVERTED = /\.(webp|gif|svg)$/i;
/** Converted images are drawn a few centimetres wide: this many pixels on their longer side is sharp at print resolution. */
const CONVERTED_SIZE = 600;

/**
 * The media library image at `url` as PNG or JPEG bytes for a PDF, or undefined when there is
 * none to draw: no url, a url outside the library, a file that is not an image by its name, a
 * missing file or one that cannot be decoded. Never throws: a document prints without the image.
 */
export async function pdfImage(storage: Storage | undefined, url: string | undefined): Promise<Buffer | undefined> {
  const key = url ? keyFromUrl(url) : undefined;
  if (!storage || !key || !(AS_IS.test(key) || CONVERTED.test(key))) return undefined;
  const data = await storage.get(key).catch(() => undefined);
  if (!data || AS_IS.test(key)) return data;
  try {
    const sharp = await loadSharp();
    // An SVG is rasterised at a density that gives enough pixels; the first frame of a GIF or WebP.
    return await sharp(data, { density: 300 }).resize(CONVERTED_SIZE, CONVERTED_SIZE, { fit: 'inside', withoutEnlargement: !/\.svg$/i.test(key) }).png().toBuffer();
  } catch {
    return undefined;
  }
}
