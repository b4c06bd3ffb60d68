import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HtmlCache, acceptedEncoding, cachedBytes, makeCachedPage } from '~/lib/html-cache.server';

const page = (html: string, nonce: string | null = null) => makeCachedPage(200, [['content-type', 'text/html; charset=utf-8']], html, nonce);

describe('HTML cache of public pages', () => {
  it('an edit racing a render: the page rendered before the edit is not stored after it', () => {
    const cache = new HtmlCache();
    const generation = cache.begin(); // the render starts, reading the old content
    cache.clear(); // an edit lands while it renders
    cache.set('fr:/', page('<p>ancien texte</p>'), generation);
    expect(cache.get('fr:/')).toBeUndefined();
    expect(cache.size).toBe(0);
    // The next render, begun after the edit, is stored.
    const next = cache.begin();
    cache.set('fr:/', page('<p>nouveau texte</p>'), next);
    expect(cache.get('fr:/')?.body.toString()).toBe('<p>nouveau texte</p>');
  });

  it('an edit drops every stored page, in every language', () => {
    const cache = new HtmlCache();
    const g = cache.begin();
    cache.set('fr:/', page('a'), g);
    cache.set('en:/', page('b'), g);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('fr:/')).toBeUndefined();
    expect(cache.get('en:/')).toBeUndefined();
  });

  /** A cache of two pages after storing these (path, html) in order: what each path then holds. */
  const afterStoring = (pages: [string, string][]) => {
    const cache = new HtmlCache(2);
    const g = cache.begin();
    for (const [path, html] of pages) cache.set(path, page(html), g);
    return { size: cache.size, held: Object.fromEntries(['/a', '/b', '/c'].map((p) => [p, cache.get(p)?.body.toString()])) };
  };

  it('keeps at most its limit, dropping the oldest page first; replacing a page drops nothing else', () => {
    expect(afterStoring([['/a', 'a'], ['/b', 'b'], ['/c', 'c']])).toEqual({ size: 2, held: { '/a': undefined, '/b': 'b', '/c': 'c' } });
    expect(afterStoring([['/a', 'a'], ['/a', 'a2'], ['/b', 'b']])).toEqual({ size: 2, held: { '/a': 'a2', '/b': 'b', '/c': undefined } });
  });

  it('stores a page without nonce pre-compressed, with an ETag of its bytes', () => {
    const html = `<!doctype html><p>${'Fondation '.repeat(50)}</p>`;
    const p = page(html);
    expect(gunzipSync(p.gzip!).toString()).toBe(html);
    expect(brotliDecompressSync(p.br!).toString()).toBe(html);
    expect(p.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(page(html).etag).toBe(p.etag);
    expect(page(`${html} `).etag).not.toBe(p.etag);
    expect(p).toMatchObject({ status: 200, nonce: null, headers: [['content-type', 'text/html; charset=utf-8']] });
  });

  it('keeps a page rendered with a nonce uncompressed, with its nonce to swap', () => {
    const p = page('<script nonce="abc">1</script>', 'abc');
    expect(p.nonce).toBe('abc');
    expect(p.gzip).toBeUndefined();
    expect(p.br).toBeUndefined();
    expect(p.body.toString()).toBe('<script nonce="abc">1</script>');
  });
});

describe('the encoding a client takes', () => {
  it('prefers brotli, then gzip, and honours a refusal (q=0)', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(acceptedEncoding('gzip;q=0')).toBeNull();
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
    // A name that merely contains a coding's is not that coding.
    expect(acceptedEncoding('x-gzip-like, brotli')).toBeNull();
  });

  it('gives a cached page its stored bytes for that encoding', () => {
    const page = makeCachedPage(200, [], '<p>' + 'bonjour '.repeat(200) + '</p>', null);
    expect(cachedBytes(page, 'gzip, br')).toEqual(['br', page.br]);
    expect(cachedBytes(page, 'gzip')).toEqual(['gzip', page.gzip]);
    expect(cachedBytes(page, 'deflate')).toEqual([null, page.body]);
  });
});
