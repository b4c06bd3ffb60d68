import { fileTypeFromBuffer } from 'file-type';
import { loadSharp } from '~/lib/sharp.server';
import { IMAGE_TIMEOUT_SECONDS, IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_PDF_BYTES, PDF_TYPE, kindOf, type MediaKind } from './media';

/**
 * The content check of an upload: what a file is comes from its first bytes (magic numbers, the
 * `file-type` package), never from its name or the type the browser claims. JPEG, PNG, WebP, GIF
 * and PDF only; SVG (a script carrier) and everything else is refused.
 */

/** Bytes enough for `file-type` to recognise every format we accept. */
export const HEAD_BYTES = 4100;

export type Refusal = { ok: false; title: string; message: string };
export type TypeCheck = { ok: true; mime: string; kind: MediaKind } | Refusal;

const ACCEPTED: readonly string[] = [...IMAGE_TYPES, PDF_TYPE];

export const unreadable = (name: string): Refusal => ({ ok: false, title: 'Erreur de lecture', message: `Impossible de lire le fichier ${name}.` });

export function limitFor(mime: string): number {
  return kindOf(mime) === 'pdf' ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
}

export function tooManyPixels(name: string, width: number, height: number): Refusal {
  return {
    ok: false,
    title: 'Image trop grande',
    message: `${name} mesure ${width} × ${height} pixels : au plus ${MAX_IMAGE_PIXELS / 1_000_000} millions de pixels par image.`,
  };
}

/**
 * Width and height as the image's header declares them (no pixel is decoded), or undefined when
 * the header cannot be read.
 */
export async function declaredSize(data: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(data, { limitInputPixels: false }).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.pageHeight ?? meta.height } : undefined;
  } catch {
    return undefined;
  }
}

export function tooLarge(name: string, mime: string): Refusal {
  const pdf = kindOf(mime) === 'pdf';
  return {
    ok: false,
    title: 'Fichier trop volumineux',
    message: `${name} dépasse la limite de ${limitFor(mime) / 1024 / 1024} Mo ${pdf ? 'pour un PDF' : 'pour une image'}.`,
  };
}

/** Recognises the file from its first bytes; `accept` narrows to one kind (an image field, the membership PDF). */
export async function checkType(name: string, head: Buffer, accept?: MediaKind): Promise<TypeCheck> {
  if (head.length === 0) return unreadable(name);
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  const mime = detected?.mime;
  if (!mime || !ACCEPTED.includes(mime)) {
    const svg = /<svg[\s>]/i.test(head.subarray(0, 1024).toString('utf8'));
    return {
      ok: false,
      title: 'Fichier refusé',
      message: svg
        ? `${name} est une image SVG : seules les images JPEG, PNG, WebP et GIF sont acceptées.`
        : `${name} n’est ni une image (JPEG, PNG, WebP, GIF) ni un PDF.`,
    };
  }
  const kind = kindOf(mime);
  if (accept && kind !== accept) {
    return { ok: false, title: 'Fichier refusé', message: accept === 'image' ? `${name} n’est pas une image.` : `${name} n’est pas un PDF.` };
  }
  return { ok: true, mime, kind };
}

/**
 * The whole file, once received: within its limit and readable to the end (a truncated image or
 * PDF is refused here rather than stored broken).
 */
export async function checkFile(name: string, data: Buffer, accept?: MediaKind): Promise<TypeCheck> {
  const type = await checkType(name, data.subarray(0, HEAD_BYTES), accept);
  if (!type.ok) return type;
  if (data.length > limitFor(type.mime)) return tooLarge(name, type.mime);
  if (type.kind === 'pdf') {
    // A complete PDF ends with its end-of-file marker (possibly followed by a few bytes of whitespace).
    if (!data.subarray(Math.max(0, data.length - 1024)).toString('latin1').includes('%%EOF')) return unreadable(name);
    return type;
  }
  const size = await declaredSize(data);
  if (!size) return unreadable(name);
  if (size.width * size.height > MAX_IMAGE_PIXELS) return tooManyPixels(name, size.width, size.height);
  try {
    // Decodes every pixel: a truncated or corrupt image fails here ('warning' level included).
    const sharp = await loadSharp();
    await sharp(data, { failOn: 'warning', limitInputPixels: MAX_IMAGE_PIXELS }).timeout({ seconds: IMAGE_TIMEOUT_SECONDS }).stats();
  } catch {
    return unreadable(name);
  }
  return type;
}
