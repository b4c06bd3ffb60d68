import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import compression from 'compression';
import express from 'express';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import * as build from 'virtual:react-router/server-build';
import { ping } from '~db/index';
import { chooseLang, langCookie } from '~/lib/i18n.server';
import { log } from '~/lib/log.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime, startRuntime, stopRuntime } from '~/lib/runtime.server';
import { sendFetchResponse, toFetchRequest, writeHeaders } from './http-bridge';
import { baseSecurityHeaders, contentSecurityPolicy, newNonce } from './security';

export { startRuntime, stopRuntime };

const handler = createRequestHandler(build as unknown as ServerBuild, process.env.NODE_ENV ?? 'production');

/** Paths never served from the HTML cache (per-user, per-request or not pages at all). */
const UNCACHED_PREFIXES = ['/admin', '/api', '/webhooks', '/media', '/payment', '/healthz', '/readyz'];
const SESSION_COOKIE = /(?:^|;\s*)__session=/;

function cacheKey(req: express.Request, lang: string): string | undefined {
  if (req.method !== 'GET' || runtime().env.HTML_CACHE === 'off') return undefined;
  if (SESSION_COOKIE.test(req.headers.cookie ?? '')) return undefined;
  if (UNCACHED_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`) || req.path.startsWith(`${p}.`))) return undefined;
  const query = Object.keys(req.query);
  if (query.some((k) => k !== 'lng' && k !== '_routes')) return undefined;
  const routes = typeof req.query._routes === 'string' ? req.query._routes : '';
  return `${lang}:${req.path}:${routes}`;
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
      log.debug('request', { requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    next();
  });

  app.use(compression());

  app.get('/healthz', async (_req, res) => {
    try {
      await ping(runtime().db);
      res.type('text/plain').send('ok');
    } catch {
      res.status(503).type('text/plain').send('database unavailable');
    }
  });

  app.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
  );
  app.use(express.static(clientDir, { maxAge: '1h', index: false }));

  if (rt.storage.localDir) {
    app.use(
      '/media',
      express.static(rt.storage.localDir, {
        immutable: true,
        maxAge: '1y',
        index: false,
        dotfiles: 'ignore',
        fallthrough: false,
      }),
    );
  }

  app.all('/{*path}', async (req, res, next) => {
    try {
      const lng = typeof req.query.lng === 'string' ? req.query.lng : undefined;
      const { lang, fromQuery } = chooseLang(lng, req.headers.cookie, req.headers['accept-language']);
      if (fromQuery) res.append('Set-Cookie', langCookie(lang, req.secure));
      const nonce = newNonce();
      const key = cacheKey(req, lang);
      const cache = runtime().cache;
      if (key) {
        const hit = cache.get(key);
        if (hit) {
          res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
          res.setHeader('X-Cache', 'HIT');
          writeHeaders(res, hit.status, hit.headers);
          res.send(hit.body.replaceAll(hit.nonce, nonce));
          return;
        }
      }
      const context = new RouterContextProvider();
      context.set(requestInfoContext, {
        nonce,
        clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        requestId: res.locals.requestId as string,
        secure: req.secure,
      });
      const generation = cache.begin();
      const response = await handler(toFetchRequest(req, res), context);
      if (!response.headers.has('Content-Security-Policy')) {
        res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
      }
      const type = response.headers.get('content-type') ?? '';
      const cacheable =
        key &&
        response.status === 200 &&
        response.headers.getSetCookie().length === 0 &&
        !/no-store|private/.test(response.headers.get('cache-control') ?? '') &&
        (type.startsWith('text/html') || type.startsWith('text/x-script'));
      if (!cacheable) {
        await sendFetchResponse(res, response);
        return;
      }
      const body = await response.text();
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') headers.push([name, value]);
      });
      cache.set(key, { status: response.status, headers, body, nonce }, generation);
      res.setHeader('X-Cache', 'MISS');
      writeHeaders(res, response.status, headers);
      res.send(body);
    } catch (error) {
      next(error);
    }
  });

  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    log.error('unhandled error', { requestId: res.locals.requestId, error: error instanceof Error ? error.message : String(error) });
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal Server Error');
  });

  return app;
}
