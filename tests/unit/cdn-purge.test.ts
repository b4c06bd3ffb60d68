import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cacheTagHeader, campaignTag, pageTag, pageTags } from '~/lib/cache-tags';
import { httpPurger, purgeConfigOf, type PurgeOptions } from '~/lib/cdn-purge.server';
import { parseEnv } from '~/lib/env.server';
import { setLogLevel, setLogSink } from '~/lib/log.server';
import { startPurgeRecorder } from '../support/purge-recorder';

/**
 * Behind a CDN (ADR 025): the keys a public page carries, and the purge a content change sends to
 * the CDN's API, here a local HTTP server that records what it receives.
 */
describe('a public page’s surrogate keys', () => {
  it('are the site, the page itself, and what else it shows; the same in every language', () => {
    expect(pageTags('/a-propos')).toEqual(['site', 'page:/a-propos']);
    expect(pageTags('/en/a-propos')).toEqual(['site', 'page:/a-propos']);
    expect(pageTags('/es/a-propos/')).toEqual(['site', 'page:/a-propos']);
    expect(pageTags('/blog/8f3a')).toEqual(['site', 'page:/blog/8f3a']);
    // The campaigns' progress shows on the home page, the campaigns' list and the projects.
    for (const p of ['/', '/en', '/es/', '/campagnes', '/en/nos-actions']) expect(pageTags(p)).toEqual(['site', pageTag(p), 'campaigns']);
    expect(pageTag('/en')).toBe('page:/');
    expect(pageTags('/en/campagnes/forages-kaya')).toEqual(['site', 'page:/campagnes/forages-kaya', 'campaign:forages-kaya']);
    expect(pageTags('/faire-un-don')).toEqual(['site', 'page:/faire-un-don', 'donate']);
    // Only a whole first segment is a language.
    expect(pageTags('/entreprise')).toEqual(['site', 'page:/entreprise']);
  });

  it('are single ASCII words every CDN takes', () => {
    expect(pageTag('/blog/un article, é')).toBe('page:/blog/un_article___');
    expect(campaignTag('a b')).toBe('campaign:a_b');
    expect(pageTag(`/${'x'.repeat(300)}`)).toHaveLength(128);
  });

  it('travel in the configured header: space-separated in Surrogate-Key, comma-separated elsewhere', () => {
    expect(cacheTagHeader('/campagnes', 'Surrogate-Key')).toEqual(['Surrogate-Key', 'site page:/campagnes campaigns']);
    expect(cacheTagHeader('/en/campagnes', 'Cache-Tag')).toEqual(['Cache-Tag', 'site,page:/campagnes,campaigns']);
    expect(cacheTagHeader('/a-propos', 'CDN-Tag')).toEqual(['CDN-Tag', 'site,page:/a-propos']);
  });
});

describe('the HTTP purge', () => {
  let cdn: Awaited<ReturnType<typeof startPurgeRecorder>>;
  const lines: string[] = [];
  let restoreSink: ReturnType<typeof setLogSink>;
  beforeAll(async () => {
    cdn = await startPurgeRecorder();
    restoreSink = setLogSink((_level, line) => lines.push(line));
    setLogLevel('warn');
  });
  afterEach(() => {
    cdn.received.length = 0;
    cdn.answer = 200;
    lines.length = 0;
  });
  afterAll(async () => {
    setLogSink(restoreSink);
    await cdn.close();
  });

  const FAST: PurgeOptions = { delayMs: 0, retryMs: 10, timeoutMs: 200 };
  /** A purger set up from the environment, as the server sets it up. */
  const purgerOf = (vars: Record<string, string>, options = FAST) => httpPurger(purgeConfigOf(parseEnv(vars))!, options);
  const cloudflare = (path = '/client/v4/zones/ZONE/purge_cache') => ({
    CACHE_PURGE_URL: `${cdn.origin}${path}`,
    CACHE_PURGE_HEADERS: 'Authorization: Bearer cf-token-123',
    CACHE_PURGE_BODY: '{"tags":{keys}}',
  });

  it('without CACHE_PURGE_URL there is nothing to send (the app’s own cache only)', () => {
    expect(purgeConfigOf(parseEnv({}))).toBeNull();
  });

  it('Cloudflare: one POST with the keys as a JSON array, the token and a JSON content type', async () => {
    const purger = purgerOf(cloudflare());
    purger.purge(['page:/blog/1', 'page:/blog', 'page:/blog']);
    await purger.idle();
    expect(cdn.received).toHaveLength(1);
    const [r] = cdn.received;
    expect(r).toMatchObject({ method: 'POST', url: '/client/v4/zones/ZONE/purge_cache', body: '{"tags":["page:/blog/1","page:/blog"]}' });
    expect(r.headers).toMatchObject({ authorization: 'Bearer cf-token-123', 'content-type': 'application/json' });
    // `site` holds every page: the keys beside it are not sent.
    purger.purge(['campaign:kaya', 'site']);
    await purger.idle();
    expect(cdn.tags()[1]).toEqual(['site']);
  });

  it('Bunny.net: one request per key ({key}), several headers separated by ";" or newlines', async () => {
    const purger = purgerOf({
      CACHE_PURGE_URL: `${cdn.origin}/pullzone/42/purgeCache`,
      CACHE_PURGE_HEADERS: 'AccessKey: bunny-key-1; X-One: 1\nX-Two: 2',
      CACHE_PURGE_BODY: '{"CacheTag":"{key}"}',
    });
    purger.purge(['campaign:kaya', 'campaigns', 'donate']);
    await purger.idle();
    expect(cdn.received.map((r) => r.body)).toEqual(['{"CacheTag":"campaign:kaya"}', '{"CacheTag":"campaigns"}', '{"CacheTag":"donate"}']);
    expect(cdn.received.map((r) => r.url)).toEqual(Array(3).fill('/pullzone/42/purgeCache'));
    expect(cdn.received[0].headers).toMatchObject({ accesskey: 'bunny-key-1', 'x-one': '1', 'x-two': '2' });
  });

  it('a key in the URL (Fastly’s single-key purge), another method, no body', async () => {
    const purger = purgerOf({ CACHE_PURGE_URL: `${cdn.origin}/service/S/purge/{key}`, CACHE_PURGE_METHOD: 'put', CACHE_PURGE_HEADERS: 'Fastly-Key: f-1' });
    purger.purge(['page:/a-propos']);
    await purger.idle();
    expect(cdn.received).toMatchObject([{ method: 'PUT', url: '/service/S/purge/page%3A%2Fa-propos', body: '' }]);
    expect(cdn.received[0].headers['content-type']).toBeUndefined();
  });

  it('a failing endpoint is tried once more, then logged without its address or token; purge() never throws', async () => {
    cdn.answer = 503;
    const purger = purgerOf(cloudflare('/secret-path'));
    expect(() => purger.purge(['page:/a-propos'])).not.toThrow();
    await purger.idle();
    expect(cdn.received).toHaveLength(2);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', msg: 'CDN purge failed', failure: 'HTTP 503', keys: ['page:/a-propos'] });
    expect(lines[0]).not.toMatch(/cf-token|secret-path|127\.0\.0\.1/);
    // A refusal (a bad token) would be refused again: not retried.
    cdn.received.length = 0;
    cdn.answer = 403;
    purger.purge(['site']);
    await purger.idle();
    expect(cdn.received).toHaveLength(1);
    expect(JSON.parse(lines[1])).toMatchObject({ failure: 'HTTP 403' });
  });

  it('a slow endpoint is given up after the time limit, an unreachable one logged too', async () => {
    cdn.answer = 'hang';
    const purger = purgerOf(cloudflare());
    const started = Date.now();
    purger.purge(['site']);
    expect(Date.now() - started).toBeLessThan(50);
    await purger.idle();
    expect(cdn.received).toHaveLength(2);
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'CDN purge failed', failure: 'TimeoutError' });
    const closed = await startPurgeRecorder();
    await closed.close();
    const nowhere = httpPurger({ url: `${closed.origin}/purge`, method: 'POST', headers: [], body: '{"tags":{keys}}' }, FAST);
    nowhere.purge(['site']);
    await nowhere.idle();
    expect(JSON.parse(lines[1])).toMatchObject({ msg: 'CDN purge failed', failure: 'ECONNREFUSED' });
  });

  it('refuses malformed settings at start, without showing a header’s value', () => {
    expect(() => parseEnv({ CACHE_PURGE_HEADERS: 'Authorization Bearer tok-9' })).toThrow(/CACHE_PURGE_HEADERS/);
    expect(() => parseEnv({ CACHE_PURGE_HEADERS: 'Authorization Bearer tok-9' })).not.toThrow(/tok-9/);
    expect(() => parseEnv({ CACHE_TAG_HEADER: 'Cache Tag' })).toThrow(/CACHE_TAG_HEADER/);
    expect(() => parseEnv({ CACHE_PURGE_URL: 'not a url' })).toThrow(/CACHE_PURGE_URL/);
    expect(parseEnv({}).CACHE_TAG_HEADER).toBe('Surrogate-Key');
  });
});
