import type { Env } from './env.server';
import { log } from './log.server';
import { SITE_TAG } from './cache-tags';

/**
 * Purging a CDN's copies of public pages by surrogate key when content changes (ADR 025).
 * `contentChanged(keys)` clears this process's memory and asks the purger to drop the keys at the
 * CDN. The default purger ("app") sends nothing: without a CDN the in-memory cache is all there is.
 * With `CACHE_PURGE_URL` set, a generic HTTP purge: one request with the keys as a JSON array
 * (`{keys}` in CACHE_PURGE_BODY, Cloudflare's shape), or one request per key (`{key}` in the body or
 * the URL, Bunny.net's and Fastly's). It runs in the background: a save never waits for it nor
 * fails because of it; a failure is retried once, then logged without the URL or headers.
 */
export interface Purger {
  /** Starts purging these keys; never throws, never waits. */
  purge(keys: readonly string[]): void;
  /** Settles when every purge started so far has ended (shutdown, tests). */
  idle(): Promise<void>;
}

export interface HttpPurgeConfig {
  url: string;
  method: string;
  headers: [string, string][];
  body: string;
}

export interface PurgeOptions {
  /** Each request's time limit. */
  timeoutMs?: number;
  /** Before the first request: other instances drop their in-memory copies first (the change feed), so the CDN refetches fresh pages. */
  delayMs?: number;
  /** Before the one retry. */
  retryMs?: number;
  fetch?: typeof fetch;
}

/** Keys per request with `{keys}` (Cloudflare takes at most 30 tags per call on some plans). */
const KEYS_PER_REQUEST = 30;

/** "app": the in-memory cache only, nothing sent. */
export const appPurger: Purger = { purge: () => undefined, idle: async () => undefined };

/** CACHE_PURGE_HEADERS: `Name: value` pairs separated by newlines or `;` (checked as the environment is read). */
export function parsePurgeHeaders(text: string): [string, string][] {
  return text
    .split(/[;\n]/)
    .filter((h) => h.includes(':'))
    .map((h) => {
      const at = h.indexOf(':');
      return [h.slice(0, at).trim(), h.slice(at + 1).trim()];
    });
}

/** The HTTP purge's settings from the environment, or null when CACHE_PURGE_URL is not set ("app"). */
export function purgeConfigOf(env: Pick<Env, 'CACHE_PURGE_URL' | 'CACHE_PURGE_METHOD' | 'CACHE_PURGE_HEADERS' | 'CACHE_PURGE_BODY'>): HttpPurgeConfig | null {
  if (!env.CACHE_PURGE_URL) return null;
  return { url: env.CACHE_PURGE_URL, method: env.CACHE_PURGE_METHOD, headers: parsePurgeHeaders(env.CACHE_PURGE_HEADERS ?? ''), body: env.CACHE_PURGE_BODY ?? '' };
}

export interface PurgeRequest {
  keys: string[];
  url: string;
  body: string;
}

/** The requests a purge of `keys` makes: one per key when `{key}` is in the URL or body, else one per batch of keys. */
export function purgeRequests(config: HttpPurgeConfig, keys: readonly string[]): PurgeRequest[] {
  // `site` holds every page: the narrower keys beside it add nothing.
  const unique = keys.includes(SITE_TAG) ? [SITE_TAG] : [...new Set(keys)];
  if (unique.length === 0) return [];
  if (config.url.includes('{key}') || config.body.includes('{key}')) {
    return unique.map((k) => ({ keys: [k], url: config.url.replaceAll('{key}', encodeURIComponent(k)), body: config.body.replaceAll('{key}', k) }));
  }
  const batches: string[][] = [];
  for (let i = 0; i < unique.length; i += KEYS_PER_REQUEST) batches.push(unique.slice(i, i + KEYS_PER_REQUEST));
  return batches.map((b) => ({ keys: b, url: config.url, body: config.body.replaceAll('{keys}', JSON.stringify(b)) }));
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** Why a request failed, without anything it carried (URL, headers, body). */
function reason(e: unknown): string {
  const cause = (e as { cause?: { code?: string } })?.cause?.code;
  if (cause) return cause;
  return e instanceof Error ? e.name : 'error';
}

export function httpPurger(config: HttpPurgeConfig, options: PurgeOptions = {}): Purger {
  const { timeoutMs = 5000, delayMs = 1000, retryMs = 1000, fetch: send = fetch } = options;
  const running = new Set<Promise<void>>();
  const headers = (body: string) => {
    const h = new Headers(config.headers);
    if (body && !h.has('content-type')) h.set('Content-Type', 'application/json');
    return h;
  };
  /** One request, tried twice; answers the failure's description, or null. */
  const attempt = async (req: PurgeRequest): Promise<string | null> => {
    let failure = '';
    for (let tries = 0; tries < 2; tries++) {
      if (tries > 0) await pause(retryMs);
      try {
        const res = await send(req.url, { method: config.method, headers: headers(req.body), body: req.body || undefined, signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
        if (res.ok) return null;
        failure = `HTTP ${res.status}`;
        // A refusal (bad token, bad body) is not retried: it would be refused again.
        if (res.status < 500 && res.status !== 429) return failure;
      } catch (e) {
        failure = reason(e);
      }
    }
    return failure;
  };
  const run = async (keys: readonly string[]) => {
    if (delayMs > 0) await pause(delayMs);
    for (const req of purgeRequests(config, keys)) {
      const failure = await attempt(req);
      if (failure) log.warn('CDN purge failed', { failure, keys: req.keys });
      else log.debug('CDN purged', { keys: req.keys });
    }
  };
  return {
    purge(keys) {
      const p = run(keys).catch((e) => log.warn('CDN purge failed', { failure: reason(e), keys: [...keys] }));
      running.add(p);
      void p.finally(() => running.delete(p));
    },
    async idle() {
      await Promise.all([...running]);
    },
  };
}

export function purgerFromEnv(env: Env): Purger {
  const config = purgeConfigOf(env);
  return config ? httpPurger(config) : appPurger;
}
