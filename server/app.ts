import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import compression from 'compression';
import express from 'express';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import * as build from 'virtual:react-router/server-build';
import { migrationStatus, ping } from '~db/index';
import { log, logs } from '~/lib/log.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime, startRuntime as startRuntimeWith, stopRuntime } from '~/lib/runtime.server';
import type { Env } from '~/lib/env.server';
import { runtimeHooks } from './runtime-hooks';
import { sendFetchResponse, toFetchRequest, writeHeaders } from './http-bridge';
import { baseSecurityHeaders } from './security';
import { hasLeft, nextTurn } from './turns';
export { acceptsFirst } from './turns';
import { isBackOfficeRequest, sitePageMatcher, withoutBackOffice } from './public-build';
import { legacyLangAddress, PUBLIC_PAGE_CACHE, publicPageKey, type PageRequest } from './page-rules';
import { errorHandler, HttpError, requestGuard, sendRefusal } from './request-guard';
import { contentSecurityPolicy, newNonce } from '~/lib/csp.server';
import { cachedBytes, makeCachedPage, type CachedPage } from '~/lib/html-cache.server';
import { cacheTagHeader } from '~/lib/cache-tags';

export { stopRuntime };

/** The runtime with the product's hooks: default content, first Admin, the areas' periodic jobs. */
export const startRuntime = (env?: Env) => startRuntimeWith(env, runtimeHooks);

const serverBuild = build as unknown as ServerBuild;
const mode = process.env.NODE_ENV ?? 'production';
/** The back office's requests go through the whole route tree; public ones through the site's routes only (./public-build). */
const backOfficeHandler = createRequestHandler(serverBuild, mode);
const publicHandler = createRequestHandler(withoutBackOffice(serverBuild), mode);
const isSitePage = sitePageMatcher(serverBuild);

/** The HTML cache's key for a page (none when the cache is off). */
function pageCacheKey(r: PageRequest): string | undefined {
  return runtime().env.HTML_CACHE === 'off' ? undefined : publicPageKey(r, runtime().publicUrl);
}

/** Headers of a response that belong to that one request and are never replayed. */
const PER_REQUEST_HEADERS = new Set(['x-request-id', 'set-cookie', 'content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-cache']);

/**
 * The headers the full chain sent with a cached page, for one (scheme, host): the fast path below
 * replays them only for a request with the same scheme and Host, so whatever the chain decides
 * from those (HSTS, a Host check) is decided by the chain.
 */
function rememberSentHeaders(req: express.Request, res: express.Response, page: CachedPage): void {
  const variant = `${req.secure ? 'https' : 'http'}|${req.headers.host ?? ''}`;
  if (page.sent?.has(variant)) return;
  const headers: string[] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || PER_REQUEST_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [String(value)]) headers.push(name, v);
  }
  (page.sent ??= new Map()).set(variant, headers);
}

/**
 * Sends a cached page: pre-compressed bytes and a 304 for a matching ETag when the page has no
 * nonce; otherwise the HTML with a fresh nonce in place of the one it was rendered with.
 */
function sendCached(req: express.Request, res: express.Response, page: CachedPage, nonce: string): void {
  writeHeaders(res, page.status, page.headers);
  res.setHeader('X-Cache', res.getHeader('X-Cache') ?? 'HIT');
  if (page.nonce) {
    // Its nonce is this answer's own: no shared cache may keep it.
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
    res.send(page.body.toString().replaceAll(page.nonce, nonce));
    return;
  }
  res.setHeader('Content-Security-Policy', page.csp ?? contentSecurityPolicy(null));
  res.setHeader('ETag', page.etag);
  res.setHeader('Cache-Control', PUBLIC_PAGE_CACHE);
  res.setHeader('Vary', 'Accept-Encoding');
  rememberSentHeaders(req, res, page);
  if (req.headers['if-none-match'] === page.etag) {
    res.status(304).end();
    return;
  }
  const [encoding, body] = cachedBytes(page, req.headers['accept-encoding']);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Cached pages for anonymous visitors, answered before Express (ADR 017): a GET or HEAD without a
 * query string, session or percent-encoding, for a page the full chain has already sent to this
 * scheme and Host, gets the same headers and the pre-compressed bytes. Anything else returns false
 * and goes through the app.
 */
export function createFastPath(app: express.Express): (req: IncomingMessage, res: ServerResponse) => boolean {
  const trustProxy = app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean;
  return (req, res) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || url.includes('?') || url.includes('%') || !url.startsWith('/')) return false;
    const rt = runtime();
    if (rt.draining) return false;
    const key = pageCacheKey({ method: 'GET', host: req.headers.host ?? '', pathname: url, query: {}, cookie: req.headers.cookie });
    const page = key ? rt.cache.get(key) : undefined;
    if (!page || page.nonce) return false;
    // Express's own reading of the scheme (req.protocol), with the same trust proxy setting.
    let scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const forwarded = req.headers['x-forwarded-proto'];
    if (typeof forwarded === 'string' && trustProxy(req.socket.remoteAddress, 0)) scheme = forwarded.split(',')[0].trim();
    const headers = page.sent?.get(`${scheme}|${req.headers.host ?? ''}`);
    if (!headers) return false;

    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    // The replayed headers are copied (a flat list), then this response's own are added.
    const out = headers.slice();
    out.push('x-request-id', requestId, 'x-cache', 'HIT');
    let status = page.status;
    let body: Buffer | undefined;
    if (req.headers['if-none-match'] === page.etag) {
      status = 304;
    } else {
      const [encoding, bytes] = cachedBytes(page, req.headers['accept-encoding']);
      if (encoding) out.push('content-encoding', encoding);
      out.push('content-length', String(bytes.length));
      body = req.method === 'HEAD' ? undefined : bytes;
    }
    res.writeHead(status, out);
    res.end(body);
    // The access line, when info lines are written at all: otherwise a hit adds no listener.
    if (logs('info')) {
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info('request', { requestId, method: req.method, path: url, status, ms: Math.round(ms * 10) / 10 });
      });
    }
    return true;
  };
}

export function createApp(clientDir: string): express.Express {
  const rt = runtime();
  const manifest = path.join(clientDir, '..', 'enhance-manifest.json');
  rt.assets = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : {};
  const app = express();
  app.disable('x-powered-by');
  if (rt.env.TRUST_PROXY) {
    const v = rt.env.TRUST_PROXY;
    app.set('trust proxy', /^\d+$/.test(v) ? Number(v) : v === 'true' ? true : v);
  }

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    baseSecurityHeaders(req, res);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Never the query string (tokens), cookies or bodies.
      log.info('request', { requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    next();
  });

  app.use(requestGuard);
  app.use(compression());

  // With PUBLIC_URL, that origin is the only one served (ADR 010): another Host is sent there
  // (GET, HEAD) or answered 421; probes from a load balancer may use any address.
  if (rt.publicUrl) {
    const publicUrl = rt.publicUrl;
    const publicHost = new URL(publicUrl).host;
    app.use((req, res, next) => {
      if (req.path === '/healthz' || req.path === '/readyz' || req.host === publicHost) return next();
      if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(308, `${publicUrl}${req.originalUrl}`);
      sendRefusal(req, res, new HttpError(421, 'httpErrors.misdirected'));
    });
  } else if (rt.env.NODE_ENV === 'production') {
    log.warn('PUBLIC_URL is not set: pages are cached, links are mailed and card or crypto payments start only for requests to localhost; set PUBLIC_URL to serve the site on its domain');
  }

  app.get('/healthz', async (_req, res) => {
    try {
      await ping(runtime().db);
      res.type('text/plain').send('ok');
    } catch {
      res.status(503).type('text/plain').send('database unavailable');
    }
  });

  // Ready: the database answers and every migration has run (a load balancer's readiness probe).
  let migrated = false;
  app.get('/readyz', async (_req, res) => {
    if (runtime().draining) {
      res.status(503).type('text/plain').send('shutting down');
      return;
    }
    try {
      await ping(runtime().db);
      migrated ||= (await migrationStatus(runtime().db)).pending.length === 0;
      if (!migrated) {
        res.status(503).type('text/plain').send('migrations pending');
        return;
      }
      res.type('text/plain').send('ready');
    } catch {
      res.status(503).type('text/plain').send('database unavailable');
    }
  });

  app.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
  );
  // Other built files (favicon…): only paths that look like files reach the disk.
  const rootFiles = express.static(clientDir, { maxAge: '1h', index: false, redirect: false });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) && !req.path.startsWith('/media/') ? rootFiles(req, res, next) : next()));

  if (rt.storage.localDir) {
    app.use(
      '/media',
      express.static(rt.storage.localDir, {
        immutable: true,
        maxAge: '1y',
        index: false,
        dotfiles: 'ignore',
      }),
    );
  } else if (rt.storage.open) {
    // S3-compatible storage: files are streamed through the app (same origin, same headers, ranges).
    const open = rt.storage.open.bind(rt.storage);
    app.get('/media/:key', async (req, res, next) => {
      try {
        const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
        const ifNoneMatch = typeof req.headers['if-none-match'] === 'string' ? req.headers['if-none-match'] : undefined;
        const file = await open(req.params.key, { range, ifNoneMatch });
        if (!file) {
          res.status(404).type('text/plain').send('Not Found');
          return;
        }
        res.status(file.status).set(file.headers);
        if (!file.body || req.method === 'HEAD') {
          file.body?.destroy();
          res.end();
          return;
        }
        file.body.on('error', (e) => res.destroy(e));
        file.body.pipe(res);
      } catch (error) {
        next(error);
      }
    });
  }
  // A missing (or deleted) file is a 404, never a page of the site.
  app.use('/media', (_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });

  app.all('/{*path}', async (req, res, next) => {
    try {
      const moved = req.query.lng === undefined ? undefined : legacyLangAddress(req.method, req.path, req.originalUrl.slice(req.originalUrl.indexOf('?') + 1), isSitePage);
      if (moved) {
        res.redirect(301, moved);
        return;
      }
      const nonce = newNonce();
      const asked: PageRequest = { method: req.method, host: req.get('host') ?? '', pathname: req.path, query: req.query as Record<string, unknown>, cookie: req.headers.cookie };
      const shared = publicPageKey(asked, runtime().publicUrl);
      const key = pageCacheKey(asked);
      const cache = runtime().cache;
      /** Answers from the HTML cache when the page is there. */
      const fromCache = (): boolean => {
        const hit = key ? cache.get(key) : undefined;
        if (hit) sendCached(req, res, hit, nonce);
        return hit !== undefined;
      };
      if (fromCache()) return;
      // Rendering waits for its turn: one request starts per event-loop turn (./turns). A visitor
      // who left meanwhile gets nothing. A request that waited behind the same page's render is
      // answered from the cache: after an editor's change, a burst of visitors costs one render.
      if (!(await nextTurn(() => hasLeft(req.socket)))) return;
      if (fromCache()) return;
      const context = new RouterContextProvider();
      context.set(requestInfoContext, {
        nonce,
        clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        requestId: res.locals.requestId as string,
        secure: req.secure,
      });
      const generation = cache.begin();
      const handler = isBackOfficeRequest(req.path, serverBuild) ? backOfficeHandler : publicHandler;
      const response = await handler(toFetchRequest(req, res, runtime().publicUrl), context);
      const type = response.headers.get('content-type') ?? '';
      const html = type.startsWith('text/html');
      // The same for every visitor: a page, found, with no cookie and no word of its own against it.
      const shareable =
        shared !== undefined &&
        html &&
        response.status === 200 &&
        response.headers.getSetCookie().length === 0 &&
        !/no-store|private/.test(response.headers.get('cache-control') ?? '');
      if (!shareable || !key) {
        if (!response.headers.has('Content-Security-Policy')) res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
        if (shareable) {
          response.headers.set('Cache-Control', PUBLIC_PAGE_CACHE);
          response.headers.set(...cacheTagHeader(req.path, runtime().env.CACHE_TAG_HEADER));
        } else if (html && !response.headers.has('Cache-Control')) {
          // Someone's own page (a session's), a refusal or a page not found: never kept by a shared
          // cache; a form's answer (what was typed) not even by the browser.
          response.headers.set('Cache-Control', req.method === 'GET' || req.method === 'HEAD' ? 'private, no-cache' : 'private, no-store');
        }
        await sendFetchResponse(res, response);
        return;
      }
      const body = await response.text();
      const csp = response.headers.get('content-security-policy') ?? '';
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-security-policy') headers.push([name, value]);
      });
      headers.push(cacheTagHeader(req.path, runtime().env.CACHE_TAG_HEADER));
      const withNonce = csp.includes(`'nonce-${nonce}'`);
      const page = makeCachedPage(response.status, headers, body, withNonce ? nonce : null);
      // A page with a policy of its own (the donate page's providers' origins) keeps it.
      if (csp && !withNonce) page.csp = csp;
      cache.set(key, page, generation);
      res.setHeader('X-Cache', 'MISS');
      sendCached(req, res, page, nonce);
    } catch (error) {
      next(error);
    }
  });

  app.use(errorHandler);

  return app;
}
