import { isLoopbackHost } from '~/lib/origin.server';
import { isLang, pathWithoutLang, sitePath } from '~/lib/lang-path';

/**
 * Which answers are the same for every visitor (a shared cache and the HTML cache may keep them)
 * and under which key; where an old `?lng=` address now lives (ADR 004, 010, 026). Pure rules:
 * server/app.ts applies them.
 */

/** Paths never served from the HTML cache (per-user, per-request or not pages at all). */
const UNCACHED_PREFIXES = ['/admin', '/api', '/webhooks', '/media', '/payment', '/healthz', '/readyz', '/mon-espace'];
/** An admin session (`__session`) or a donor session (`__donor`, the donor space): the page is someone's own. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__session|__donor)=/;

/**
 * Query parameters that choose what a page shows, by path: each value is part of the page's cache
 * key (the donate page's tab and campaign: a campaign's "Faire un don" leads there, the surge's
 * path). The page itself says when a variant is not to be kept (an unknown campaign, an unknown
 * tab: `private, no-store`), so made-up values never fill the cache.
 */
const CACHED_QUERIES: Record<string, string[]> = { '/faire-un-don': ['m', 'campagne'] };

export interface PageRequest {
  method: string;
  host: string;
  pathname: string;
  query: Record<string, unknown>;
  cookie: string | undefined;
}

/**
 * The key of a page any visitor gets alike, or undefined when the request's answer may be someone's
 * own. Without PUBLIC_URL the Host is the visitor's word: only loopback hosts qualify (ADR 010),
 * each under its own key, so a forged Host can never put its URLs into a page another visitor, or
 * a shared cache, receives. The path names the language (ADR 026), so it is part of the key.
 */
export function publicPageKey(r: PageRequest, publicUrl: string | undefined): string | undefined {
  if (r.method !== 'GET' && r.method !== 'HEAD') return undefined;
  if (!publicUrl && !isLoopbackHost(r.host)) return undefined;
  if (SESSION_COOKIE.test(r.cookie ?? '')) return undefined;
  const bare = pathWithoutLang(r.pathname);
  if (UNCACHED_PREFIXES.some((p) => bare === p || bare.startsWith(`${p}/`) || bare.startsWith(`${p}.`))) return undefined;
  const chosen = CACHED_QUERIES[bare] ?? [];
  const keys = Object.keys(r.query);
  if (keys.some((k) => !chosen.includes(k) || typeof r.query[k] !== 'string' || (r.query[k] as string).length > 100)) return undefined;
  const variant = chosen.filter((k) => keys.includes(k)).map((k) => `${k}=${encodeURIComponent(r.query[k] as string)}`).join('&');
  return `${r.host}|${r.pathname}${variant ? `?${variant}` : ''}`;
}

/**
 * How long caches keep a public page. A browser asks again each time (its ETag makes the answer a
 * 304), so an editor who publishes sees the change at once. A shared cache (a CDN, Caddy) keeps it
 * five minutes, then serves a stale copy while it fetches a fresh one (a day), or while the server
 * fails; a change purges it at once when a purge hook is set (ADR 025).
 */
export const PUBLIC_PAGE_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400, stale-if-error=86400';

/**
 * `/faire-un-don?lng=en`, the addresses before each language had its own (ADR 026), for ever at
 * `/en/faire-un-don`, the other parameters kept: a GET of a site page only (an API call, a feed or
 * a download reads its own `?lng=`). Undefined when the request is not such an address.
 */
export function legacyLangAddress(method: string, pathname: string, search: string, isSitePage: (path: string) => boolean): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const query = new URLSearchParams(search);
  const lng = query.get('lng');
  if (!isLang(lng) || !isSitePage(pathname)) return undefined;
  query.delete('lng');
  const rest = query.toString();
  return sitePath(lng, `${pathWithoutLang(pathname)}${rest ? `?${rest}` : ''}`);
}
