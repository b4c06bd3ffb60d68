/**
 * Surrogate keys (cache tags) of public pages (ADR 025): a CDN keeps them with each page it caches,
 * and a purge by key drops every page carrying it. Keys are short ASCII words without spaces or
 * commas; they never depend on the language (every change shows in all three), so a page's key is
 * the same at `/a-propos`, `/en/a-propos` and `/es/a-propos`.
 */
import { pathWithoutLang } from './lang-path';

/** Every public page: a purge of `site` drops them all (settings, media, a change whose reach is wide). */
export const SITE_TAG = 'site';
/** The pages listing campaigns with their progress: home, /campagnes, /nos-actions. */
export const CAMPAIGNS_TAG = 'campaigns';
/** /faire-un-don, whatever its query (tab, campaign designated). */
export const DONATE_TAG = 'donate';
/** /ou-va-votre-argent and each published year's page (/ou-va-votre-argent/2025): figures and live totals (ADR 032). */
export const MONEY_TAG = 'money';
/** The page "where the money goes", without its language prefix. */
export const MONEY_PATH = '/ou-va-votre-argent';

const LISTS_CAMPAIGNS = new Set(['/', '/campagnes', '/nos-actions']);
/** Akamai's limit per tag (Cloudflare's is 1024): a longer path is cut, its key stays one word. */
const MAX_TAG = 128;

/** A path without its language prefix and trailing slash: `/en/blog/` → `/blog`, `/es` → `/`. */
export function pagePath(path: string): string {
  const p = pathWithoutLang(path).replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** A key part kept to what every CDN takes in a tag: letters, digits and `/ : . _ ~ -`. */
const clean = (s: string) => s.replace(/[^A-Za-z0-9/:._~-]/g, '_').slice(0, MAX_TAG);

/** One page's own key: `page:/a-propos`, `page:/blog/123`, `page:/` (the home page). */
export const pageTag = (path: string): string => clean(`page:${pagePath(path)}`);

/** A campaign's page (/campagnes/<slug>). */
export const campaignTag = (slug: string): string => clean(`campaign:${slug}`);

/**
 * The keys of a public page from its path (with or without a language prefix): `site`, its own
 * key, and what it shows besides its own content (campaign progress, the donate form).
 */
export function pageTags(path: string): string[] {
  const p = pagePath(path);
  const tags = [SITE_TAG, pageTag(p)];
  if (LISTS_CAMPAIGNS.has(p)) tags.push(CAMPAIGNS_TAG);
  const campaign = /^\/campagnes\/([^/]+)$/.exec(p);
  if (campaign) tags.push(campaignTag(campaign[1]));
  if (p === '/faire-un-don') tags.push(DONATE_TAG);
  if (p === MONEY_PATH || p.startsWith(`${MONEY_PATH}/`)) tags.push(MONEY_TAG);
  return tags;
}

/**
 * The response header carrying a page's keys, under the configured name (`CACHE_TAG_HEADER`):
 * space-separated in `Surrogate-Key` (Fastly, Varnish), comma-separated otherwise (Cloudflare's
 * `Cache-Tag`, Bunny's `CDN-Tag`, CloudFront, Akamai).
 */
export function cacheTagHeader(path: string, name: string): [string, string] {
  return [name, pageTags(path).join(name.toLowerCase() === 'surrogate-key' ? ' ' : ',')];
}
