import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { log } from '~/lib/log.server';
import type { Storage } from '~/lib/storage.server';
import { HEAD_BYTES, checkFile, checkType, limitFor, tooLarge, type Refusal, type TypeCheck } from './check.server';
import { displayName, storeMedia } from './library.server';
import { MAX_FILES_PER_REQUEST, MAX_PDF_BYTES, MB, type MediaKind, type UploadResult } from './media';

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The largest request worth reading: every file at the largest limit, plus the multipart framing. */
const MAX_REQUEST_BYTES = MAX_FILES_PER_REQUEST * MAX_PDF_BYTES + MB;

interface Incoming {
  name: string;
  chunks: Buffer[];
  size: number;
  type?: TypeCheck;
  refused?: Refusal;
}

/**
 * Reads a multipart upload as it streams (busboy): each file's type is recognised from its first
 * bytes and its size limit applied while it arrives, so a refused file is never held whole and the
 * request body is never buffered before the check. Accepted files are checked to the end, then
 * stored (generated names, WebP variants for images); a file that fails leaves nothing behind.
 */
export async function receiveUploads(request: Request, db: DB, storage: Storage, actor: Actor, accept?: MediaKind): Promise<UploadResult[]> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data') || !request.body) throw new UploadError('Aucun fichier reçu.', 400);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_REQUEST_BYTES) throw new UploadError(`Envoi trop volumineux : ${MAX_FILES_PER_REQUEST} fichiers de 20 Mo au plus à la fois.`, 413);

  const results: UploadResult[] = [];
  let chain: Promise<void> = Promise.resolve();
  let tooMany = false;

  const finish = async (file: Incoming) => {
    if (file.refused) {
      results.push({ name: file.name, ...file.refused });
      return;
    }
    const data = Buffer.concat(file.chunks);
    file.chunks = [];
    const check = await checkFile(file.name, data, accept);
    if (!check.ok) {
      results.push({ name: file.name, ...check });
      return;
    }
    try {
      const item = await storeMedia(db, storage, file.name, data, check.mime);
      await audit(db, actor, 'media.upload', item.name, { id: item.id, mime: item.mime, size: item.size });
      results.push({ name: file.name, ok: true, item });
    } catch (e) {
      log.error('media upload failed', { error: e instanceof Error ? e.message : String(e) });
      results.push({ name: file.name, ok: false, title: 'Erreur d’enregistrement', message: `Le fichier ${file.name} n’a pas pu être enregistré. Réessayez.` });
    }
  };

  await new Promise<void>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: { fileSize: MAX_PDF_BYTES + 1, files: MAX_FILES_PER_REQUEST, fields: 20, fieldSize: 1024, parts: MAX_FILES_PER_REQUEST + 20 },
      });
    } catch {
      reject(new UploadError('Envoi illisible.', 400));
      return;
    }
    bb.on('file', (_field, stream, info) => {
      if (!info.filename) {
        stream.resume(); // an empty file input
        return;
      }
      const file: Incoming = { name: displayName(info.filename), chunks: [], size: 0 };
      const refuse = (r: Refusal) => {
        file.refused ??= r;
        file.chunks = [];
      };
      const enforceLimit = () => {
        if (file.type?.ok && file.size > limitFor(file.type.mime)) refuse(tooLarge(file.name, file.type.mime));
      };
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        if (file.refused) return;
        file.chunks.push(chunk);
        if (!file.type && file.size >= HEAD_BYTES) {
          stream.pause();
          void checkType(file.name, Buffer.concat(file.chunks).subarray(0, HEAD_BYTES), accept).then((type) => {
            file.type = type;
            if (!type.ok) refuse(type);
            enforceLimit();
            stream.resume();
          });
          return;
        }
        enforceLimit();
      });
      stream.on('limit', () => refuse(file.type?.ok ? tooLarge(file.name, file.type.mime) : tooLarge(file.name, 'application/pdf')));
      stream.on('end', () => {
        chain = chain.then(() => finish(file));
      });
    });
    bb.on('filesLimit', () => (tooMany = true));
    bb.on('close', () => resolve());
    bb.on('error', (e) => reject(e instanceof UploadError ? e : new UploadError('Envoi interrompu ou illisible.', 400)));
    const body = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream);
    body.on('error', () => reject(new UploadError('Envoi interrompu.', 400)));
    body.pipe(bb);
  });
  await chain;
  if (tooMany) {
    results.push({ name: '', ok: false, title: 'Trop de fichiers', message: `${MAX_FILES_PER_REQUEST} fichiers au plus par envoi : les suivants n’ont pas été lus.` });
  }
  if (results.length === 0) throw new UploadError('Aucun fichier reçu.', 400);
  return results;
}
