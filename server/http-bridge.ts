import { Readable } from 'node:stream';
import { writeReadableStreamToWritable } from '@react-router/node';
import type * as express from 'express';

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
  // A page is rendered whole before it is answered (app/entry.server.tsx): one write instead of a
  // chunk per React flush, so compression runs once over the page (ADR 017).
  else if ((response.headers.get('content-type') ?? '').startsWith('text/html')) res.end(Buffer.from(await response.arrayBuffer()));
  else await writeReadableStreamToWritable(response.body, res);
}
