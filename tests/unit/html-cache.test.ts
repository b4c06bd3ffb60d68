import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HtmlCache, makeCachedPage } from '~/lib/html-cache.server';

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

  it('keeps at most its limit, dropping the oldest page first', () => {
    const cache = new HtmlCache(2);
    const g = cache.begin();
    cache.set('fr:/a', page('a'), g);
    cache.set('fr:/b', page('b'), g);
    cache.set('fr:/c', page('c'), g);
    expect(cache.size).toBe(2);
    expect(cache.get('fr:/a')).toBeUndefined();
    expect(cache.get('fr:/b')?.body.toString()).toBe('b');
    expect(cache.get('fr:/c')?.body.toString()).toBe('c');
  });

  it('replacing a page at the limit drops nothing else', () => {
    const cache = new HtmlCache(2);
    const g = cache.begin();
    cache.set('fr:/a', page('a'), g);
    cache.set('fr:/a', page('a2'), g);
    cache.set('fr:/b', page('b'), g);
    expect(cache.size).toBe(2);
    expect(cache.get('fr:/a')?.body.toString()).toBe('a2');
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
