import { describe, expect, it } from 'vitest';
import { checkFile, checkType, HEAD_BYTES } from '~/domain/media/check.server';
import { MAX_IMAGE_BYTES, MAX_PDF_BYTES, formatSize } from '~/domain/media/media';
import { HTML, SVG, makeGif, makeJpeg, makePdf, makePng, makeWebp, pngDeclaring } from '../support/media-files';

describe('content check (magic bytes, not names)', () => {
  it('recognises real JPEG, PNG, WebP, GIF and PDF files', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['photo.jpg', await makeJpeg(), 'image/jpeg'],
      ['logo.png', await makePng(), 'image/png'],
      ['image.webp', await makeWebp(), 'image/webp'],
      ['anim.gif', await makeGif(), 'image/gif'],
      ['adhesion.pdf', makePdf(), 'application/pdf'],
    ];
    for (const [name, data, mime] of cases) {
      expect(await checkFile(name, data), name).toEqual({ ok: true, mime, kind: mime === 'application/pdf' ? 'pdf' : 'image' });
    }
  });

  it('goes by content when a file is renamed: a PNG named .jpg is a PNG, a PDF named .png is a PDF', async () => {
    expect(await checkFile('photo.jpg', await makePng())).toMatchObject({ ok: true, mime: 'image/png' });
    expect(await checkFile('scan.png', makePdf())).toMatchObject({ ok: true, mime: 'application/pdf', kind: 'pdf' });
    expect(await checkFile('document', await makeJpeg())).toMatchObject({ ok: true, mime: 'image/jpeg' });
  });

  it('refuses a PDF where an image is expected, and an image where a PDF is expected', async () => {
    expect(await checkFile('photo.png', makePdf(), 'image')).toEqual({ ok: false, title: 'Fichier refusé', message: 'photo.png n’est pas une image.' });
    expect(await checkFile('formulaire.pdf', await makePng(), 'pdf')).toEqual({ ok: false, title: 'Fichier refusé', message: 'formulaire.pdf n’est pas un PDF.' });
  });

  it('refuses an HTML file named .png, an SVG and a text file', async () => {
    expect(await checkFile('image.png', HTML)).toEqual({
      ok: false,
      title: 'Fichier refusé',
      message: 'image.png n’est ni une image (JPEG, PNG, WebP, GIF) ni un PDF.',
    });
    const svg = await checkFile('logo.svg', SVG);
    expect(svg).toMatchObject({ ok: false, title: 'Fichier refusé' });
    expect(!svg.ok && svg.message).toContain('SVG');
    expect(await checkFile('notes.pdf', Buffer.from('just some text, not a PDF'))).toMatchObject({ ok: false, title: 'Fichier refusé' });
  });

  it('refuses a truncated image or PDF as unreadable', async () => {
    const jpeg = await makeJpeg();
    const png = await makePng();
    const pdf = makePdf();
    const unreadable = (name: string) => ({ ok: false, title: 'Erreur de lecture', message: `Impossible de lire le fichier ${name}.` });
    expect(await checkFile('coupee.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toEqual(unreadable('coupee.jpg'));
    expect(await checkFile('coupee.png', png.subarray(0, Math.floor(png.length / 2)))).toEqual(unreadable('coupee.png'));
    expect(await checkFile('coupe.pdf', pdf.subarray(0, pdf.length - 20))).toEqual(unreadable('coupe.pdf'));
    expect(await checkFile('vide.png', Buffer.alloc(0))).toEqual(unreadable('vide.png'));
  });

  it('refuses a file over its limit: 10 MB for an image, 20 MB for a PDF', async () => {
    const png = await makePng();
    const bigImage = Buffer.concat([png, Buffer.alloc(MAX_IMAGE_BYTES + 1 - png.length)]);
    expect(await checkFile('grande.png', bigImage)).toEqual({ ok: false, title: 'Fichier trop volumineux', message: 'grande.png dépasse la limite de 10 Mo pour une image.' });
    const pdf = makePdf();
    // A PDF of 15 MB is within its limit; 20 MB + 1 byte is not.
    const okPdf = Buffer.concat([pdf.subarray(0, 9), Buffer.alloc(15 * 1024 * 1024, 0x20), pdf.subarray(9)]);
    expect(await checkFile('gros.pdf', okPdf)).toMatchObject({ ok: true, kind: 'pdf' });
    const bigPdf = Buffer.concat([pdf.subarray(0, 9), Buffer.alloc(MAX_PDF_BYTES, 0x20), pdf.subarray(9)]);
    expect(await checkFile('enorme.pdf', bigPdf)).toEqual({ ok: false, title: 'Fichier trop volumineux', message: 'enorme.pdf dépasse la limite de 20 Mo pour un PDF.' });
  });

  it('refuses an image declaring more than 40 megapixels from its header, without decoding it (a decompression bomb)', async () => {
    const bomb = pngDeclaring(12_000, 12_000);
    expect(bomb.length).toBeLessThan(1024);
    expect(await checkFile('bombe.png', bomb)).toEqual({
      ok: false,
      title: 'Image trop grande',
      message: 'bombe.png mesure 12000 × 12000 pixels : au plus 40 millions de pixels par image.',
    });
    // The limit is on pixels, not on either side: 40 000 × 1 001 is over it too.
    expect(await checkFile('bande.png', pngDeclaring(40_000, 1_001))).toMatchObject({ ok: false, title: 'Image trop grande' });
  });

  it('needs only the first bytes to recognise a type', async () => {
    const jpeg = await makeJpeg(2000, 1500);
    expect(jpeg.length).toBeGreaterThan(HEAD_BYTES);
    expect(await checkType('photo.jpg', jpeg.subarray(0, HEAD_BYTES))).toMatchObject({ ok: true, mime: 'image/jpeg' });
  });

  it('formats sizes the French way', () => {
    expect(formatSize(512)).toBe('512 o');
    expect(formatSize(1536)).toBe('1,5 Ko');
    expect(formatSize(3 * 1024 * 1024)).toBe('3 Mo');
  });
});
