import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { writeReadableStreamToWritable } from '@react-router/node';
import type * as express from 'express';
import { acceptedEncoding } from '~/lib/html-cache.server';

/**
 * Express request → Fetch Request, with the body streamed for methods that have one. With a
 * configured public origin, the request's URL carries that origin, never the client's Host.
 */
export function toFetchRequest(req: express.Request, res: express.Response, publicOrigin?: string): Request {
  const origin = publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const url = new URL(req.originalUrl || req.url, origin);
  const controller = new AbortController();
  // A visitor who leaves before the answer aborts the loaders; an answered request does not (an
  // abort builds a DOMException with its stack, on every request otherwise).
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(key, value);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // The request guard has read (and bounded) the body already, except for streamed uploads.
    const read = res.locals.body as Buffer | undefined;
    init.body = read ? new Uint8Array(read) : (Readable.toWeb(req) as unknown as ReadableStream);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

export function writeHeaders(res: express.Response, status: number, headers: Iterable<[string, string]>): void {
  res.status(status);
  for (const [key, value] of headers) {
    if (key.toLowerCase() === 'set-cookie') res.append(key, value);
    else res.setHeader(key, value);
  }
}

/** Fetch Response → Express response, streaming the body. */
export async function sendFetchResponse(res: express.Response, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  const headers: [string, string][] = [];
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers.push([key, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  writeHeaders(res, response.status, headers);
  if (!response.body) res.end();
  // A page is rendered whole before it is answered (app/entry.server.tsx): one write, compressed
  // in one piece (ADR 017).
  else if ((response.headers.get('content-type') ?? '').startsWith('text/html')) await sendHtml(res, Buffer.from(await response.arrayBuffer()));
  else await writeReadableStreamToWritable(response.body, res);
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Below this, compressing costs more than it saves (the `compression` middleware's own threshold). */
const COMPRESS_FROM = 1024;

/**
 * A rendered page, compressed in one call on libuv's thread pool, with the `compression`
 * middleware's encodings and levels (brotli quality 4, else gzip level 6). Through the middleware,
 * the same bytes went through a stream: its chunking and callbacks cost a fifth of a rendered home
 * page's throughput (ADR 017, sixth addendum). The middleware leaves an encoded response alone,
 * and still adds `Vary: Accept-Encoding`.
 */
async function sendHtml(res: express.Response, body: Buffer): Promise<void> {
  const req = res.req;
  const compressible = req.method === 'GET' && body.length >= COMPRESS_FROM && !/\bno-transform\b/.test(String(res.getHeader('Cache-Control') ?? ''));
  const encoding = compressible ? acceptedEncoding(req.headers['accept-encoding']) : null;
  if (!encoding) {
    res.end(body);
    return;
  }
  const compressed =
    encoding === 'br'
      ? await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : await gzip(body);
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', compressed.length);
  res.end(compressed);
}
