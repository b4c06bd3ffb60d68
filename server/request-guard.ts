import type { Socket } from 'node:net';
import type * as express from 'express';
import { chooseLang, fromAcceptLanguage, messagesFor } from '~/lib/i18n.server';
import { DEFAULT_LANG, hasLangPrefix, isLang, translate, type MessageKey } from '~/lib/i18n';
import { contentSecurityPolicy } from '~/lib/csp.server';
import { log } from '~/lib/log.server';

/**
 * The one place that decides which malformed requests are refused, and how: before any page or
 * handler runs, a request with an unknown method, an undecodable path or query, a body too large
 * or of the wrong type, or a body that cannot be parsed gets a 4xx in the requester's language
 * (HTML for people, JSON for the API and webhooks), never a 500 and never a stack.
 */

const KIB = 1024;
/**
 * Forms 64 KiB; webhooks 1 MiB; the back office's editing forms (rich text in three languages)
 * 1 MiB, for a request that carries a session cookie (whose session the admin guard then checks).
 */
export const BODY_LIMITS = { form: 64 * KIB, webhook: 1024 * KIB, adminForm: 1024 * KIB, evidence: 6 * 1024 * KIB } as const;
/** Back-office forms that carry a document (a gift in kind's evidence, 5 Mo at most: ADR 030), for a request with a session cookie. */
const EVIDENCE_PATHS = ['/admin/cheques/nature'];
/** Sign-in flows under /admin: anyone may post there, so they keep the form limit. */
const AUTH_PATHS = /^\/admin\/(login|setup|logout|mot-de-passe-oublie|invitation\/|reinitialiser\/)/;

/** The media upload reads its own multipart stream with its own per-file limits (ADR 007). */
const STREAMED_PATHS = ['/admin/media/televerser'];
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const MACHINE_TYPES = [...FORM_TYPES, 'application/json', 'text/plain'];

/** An HTTP error with a status the requester is told about (anything else thrown is a 500). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly vars: Record<string, string> = {},
  ) {
    super(key);
  }
}

const isMachinePath = (p: string) => p.startsWith('/api/') || p.startsWith('/webhooks/');

function bodyLimit(req: express.Request): number {
  const p = req.path;
  if (p.startsWith('/webhooks/')) return BODY_LIMITS.webhook;
  if (p.startsWith('/admin/') && !AUTH_PATHS.test(p) && /(?:^|;\s*)__session=/.test(req.headers.cookie ?? '')) return EVIDENCE_PATHS.includes(p) ? BODY_LIMITS.evidence : BODY_LIMITS.adminForm;
  return BODY_LIMITS.form;
}

function humanSize(bytes: number): string {
  return bytes >= 1024 * KIB ? `${bytes / (1024 * KIB)} MiB` : `${bytes / KIB} KiB`;
}

/** Sends a refusal as JSON (API, webhooks, clients asking for JSON) or as a small HTML page. */
export function sendRefusal(req: express.Request, res: express.Response, error: HttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let lng: string | undefined;
  try {
    lng = typeof req.query.lng === 'string' ? req.query.lng : undefined;
  } catch {
    lng = undefined;
  }
  // A refusal is never cached: an address that names no language may follow the browser's.
  const lang = hasLangPrefix(req.path) || isLang(lng) ? chooseLang(req.path, lng).lang : (fromAcceptLanguage(req.headers['accept-language'] ?? null) ?? DEFAULT_LANG);
  const message = translate(messagesFor(lang), error.key, error.vars);
  res.status(error.status);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Language', lang);
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(null));
  if (error.status === 405) res.setHeader('Allow', ALLOWED_METHODS.join(', '));
  // The rest of a refused body is not read: the connection ends after the answer.
  if (error.status === 413 || !req.complete) {
    res.setHeader('Connection', 'close');
    lingerThenClose(req.socket);
  }
  const wantsJson = isMachinePath(req.path) || /json/.test(String(req.headers.accept ?? ''));
  if (wantsJson) {
    res.json({ error: message });
    return;
  }
  res.type('html').send(`<!doctype html><html lang="${lang}"><meta charset="utf-8"><title>${error.status}</title><main><h1>${error.status}</h1><p>${escapeHtml(message)}</p></main></html>`);
}

/** How long a refused request's remaining bytes are discarded after the answer, before the connection is cut. */
const LINGER_MS = 2000;

/**
 * Node ends a `Connection: close` answer with socket.destroySoon(), which resets the connection
 * while the client is still sending: the client then often loses the answer it was sent. Here the
 * connection is half-closed instead, what still arrives is discarded (never stored), and the
 * socket is destroyed after LINGER_MS (a "lingering close").
 */
function lingerThenClose(socket: Socket): void {
  (socket as Socket & { destroySoon: () => void }).destroySoon = () => {
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function mediaType(req: express.Request): string {
  return String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Rejects what can be judged from the request line and headers: method, encoding, size, type. */
function checkHead(req: express.Request): void {
  if (!ALLOWED_METHODS.includes(req.method)) throw new HttpError(405, 'httpErrors.methodNotAllowed');
  const raw = req.originalUrl || req.url;
  const q = raw.indexOf('?');
  let decoded: string[];
  try {
    decoded = [decodeURIComponent(q === -1 ? raw : raw.slice(0, q)), ...(q === -1 ? [] : raw.slice(q + 1).split(/[&=]/).map((part) => decodeURIComponent(part.replace(/\+/g, ' '))))];
  } catch {
    throw new HttpError(400, 'httpErrors.badRequest');
  }
  if (decoded.some(hasNul)) throw new HttpError(400, 'httpErrors.badRequest');
  if (!hasBody(req) || STREAMED_PATHS.includes(req.path)) return;
  const limit = bodyLimit(req);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new HttpError(413, 'httpErrors.tooLarge', { limit: humanSize(limit) });
  const type = mediaType(req);
  if (type && !(isMachinePath(req.path) ? MACHINE_TYPES : FORM_TYPES).includes(type)) throw new HttpError(415, 'httpErrors.unsupportedType');
}

function hasBody(req: express.Request): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD' && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/** Reads the body, counting bytes as they arrive: past the limit, stop reading and refuse. */
function readLimited(req: express.Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(new HttpError(413, 'httpErrors.tooLarge', { limit: humanSize(limit) }));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => reject(new HttpError(400, 'httpErrors.badRequest')));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A NUL character is no text anything on this site takes, and PostgreSQL cannot store one: in a
 * path, a query or a body it is refused like an undecodable one.
 */
const hasNul = (s: string) => s.includes('\0');

/** A body the handlers could not parse is refused here, so that they never throw on it. */
async function checkBody(type: string, contentType: string, body: Buffer, machine: boolean): Promise<void> {
  if (body.length === 0) return;
  let nul = false;
  try {
    if (type === 'multipart/form-data') {
      const form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
      nul = [...form].some(([name, value]) => hasNul(name) || (typeof value === 'string' && hasNul(value)));
    } else {
      const text = utf8.decode(body);
      if (type === 'application/json') nul = JSON.stringify(JSON.parse(text)).includes('\\u0000');
      else if (type === 'application/x-www-form-urlencoded') nul = [...new URLSearchParams(text)].some(([name, value]) => hasNul(name) || hasNul(value));
      else if (!machine) throw new Error('no type');
    }
  } catch {
    throw new HttpError(400, 'httpErrors.badRequest');
  }
  if (nul) throw new HttpError(400, 'httpErrors.badRequest');
}

/**
 * Middleware: refuses malformed requests, and reads every body (but the media upload's) within
 * its limit into `res.locals.body`, which the bridge hands to the router instead of the stream.
 */
export async function requestGuard(req: express.Request, res: express.Response, next: express.NextFunction): Promise<void> {
  try {
    checkHead(req);
    if (hasBody(req) && !STREAMED_PATHS.includes(req.path)) {
      const body = await readLimited(req, bodyLimit(req));
      await checkBody(mediaType(req), String(req.headers['content-type'] ?? ''), body, isMachinePath(req.path));
      res.locals.body = body;
    }
    next();
  } catch (error) {
    next(error);
  }
}

/** Error middleware: known error classes become their 4xx; anything else is a logged 500. */
export function errorHandler(error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction): void {
  // The visitor went away while the page was being sent (closed tab, a load test ending): nothing
  // to answer and nothing wrong with the server.
  if (res.destroyed || req.socket.destroyed || (error as { code?: string } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE') {
    log.debug('client went away before the response was sent', { requestId: res.locals.requestId });
    return;
  }
  sendRefusal(req, res, toHttpError(error, res));
}

export function toHttpError(error: unknown, res: express.Response): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof URIError) return new HttpError(400, 'httpErrors.badRequest');
  const status = typeof error === 'object' && error !== null ? Number((error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode) : NaN;
  if (status === 404) return new HttpError(404, 'notFound.title');
  if (status === 416) return new HttpError(416, 'httpErrors.rangeNotSatisfiable');
  if (status === 413) return new HttpError(413, 'httpErrors.tooLarge', { limit: humanSize(BODY_LIMITS.form) });
  if (status === 415) return new HttpError(415, 'httpErrors.unsupportedType');
  if (status === 405 || status === 501) return new HttpError(405, 'httpErrors.methodNotAllowed');
  if (status >= 400 && status < 500) return new HttpError(400, 'httpErrors.badRequest');
  if (error instanceof SyntaxError) return new HttpError(400, 'httpErrors.badRequest');
  log.error('unhandled error', { requestId: res.locals.requestId, error: error instanceof Error ? error.message : String(error) });
  return new HttpError(500, 'httpErrors.serverError');
}
