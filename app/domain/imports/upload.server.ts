/**
 * Receiving the file of an import (ADR 036): one file of a multipart form, read as it streams
 * (busboy) and refused as soon as it passes MAX_IMPORT_BYTES, so an oversized upload is never held
 * whole. Its content is checked afterwards by the reader (read.server.ts).
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { MAX_IMPORT_BYTES } from './imports.server';

export type Received = { ok: true; name: string; data: Buffer } | { ok: false; message: string };

const TOO_LARGE = `Le fichier dépasse ${MAX_IMPORT_BYTES / 1024 / 1024} Mo : découpez-le en plusieurs fichiers (par année, par exemple).`;

export async function receiveImportFile(request: Request): Promise<Received> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data') || !request.body) return { ok: false, message: 'Choisissez un fichier à importer.' };
  if (Number(request.headers.get('content-length') ?? 0) > MAX_IMPORT_BYTES + 64 * 1024) return { ok: false, message: TOO_LARGE };
  return new Promise<Received>((resolve) => {
    let result: Received = { ok: false, message: 'Choisissez un fichier à importer.' };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { 'content-type': type }, defParamCharset: 'utf8', limits: { files: 1, fileSize: MAX_IMPORT_BYTES, fields: 5, fieldSize: 1024 } });
    } catch {
      resolve({ ok: false, message: 'Envoi illisible : réessayez.' });
      return;
    }
    bb.on('file', (_field, stream, info) => {
      const chunks: Buffer[] = [];
      let refused = false;
      stream.on('data', (c: Buffer) => {
        if (!refused) chunks.push(c);
      });
      stream.on('limit', () => {
        refused = true;
        chunks.length = 0;
        result = { ok: false, message: TOO_LARGE };
      });
      stream.on('end', () => {
        if (!refused && info.filename) result = { ok: true, name: info.filename, data: Buffer.concat(chunks) };
      });
    });
    bb.on('close', () => resolve(result));
    bb.on('error', () => resolve({ ok: false, message: 'Envoi interrompu : réessayez.' }));
    Readable.fromWeb(request.body as import('node:stream/web').ReadableStream).on('error', () => resolve({ ok: false, message: 'Envoi interrompu : réessayez.' })).pipe(bb);
  });
}
