import { describe, expect, it } from 'vitest';
import { HtmlCache, makeCachedPage, pageBytes } from '~/lib/html-cache.server';

const page = (text: string) => makeCachedPage(200, [['content-type', 'text/html; charset=utf-8']], `<!DOCTYPE html><p>${text}</p>`, null);

describe('HtmlCache bounds', () => {
  it('keeps the bytes it holds under its limit, forgetting the oldest pages first', () => {
    const one = page('a'.repeat(5000));
    const size = pageBytes(one);
    const cache = new HtmlCache(100, size * 3);
    for (const key of ['fr:/a', 'fr:/b', 'fr:/c', 'fr:/d']) cache.set(key, page('a'.repeat(5000)), cache.begin());
    expect(cache.size).toBe(3);
    expect(cache.byteSize).toBeLessThanOrEqual(size * 3);
    expect(cache.get('fr:/a')).toBeUndefined();
    expect(cache.get('fr:/d')).toBeDefined();
  });

  it('replacing a page counts its bytes once', () => {
    const cache = new HtmlCache();
    cache.set('fr:/', page('x'), cache.begin());
    const before = cache.byteSize;
    cache.set('fr:/', page('x'), cache.begin());
    expect(cache.byteSize).toBe(before);
    expect(cache.size).toBe(1);
  });

  it('never stores a page larger than the whole budget', () => {
    const big = page('z'.repeat(50_000));
    const cache = new HtmlCache(100, pageBytes(big) - 1);
    cache.set('fr:/big', big, cache.begin());
    expect(cache.get('fr:/big')).toBeUndefined();
    expect(cache.byteSize).toBe(0);
  });

  it('keeps at most its number of entries', () => {
    const cache = new HtmlCache(2);
    for (const key of ['fr:/1', 'fr:/2', 'fr:/3']) cache.set(key, page(key), cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('fr:/1')).toBeUndefined();
  });

  it('a clear empties it, and a page rendered before the clear is not stored after it', () => {
    const cache = new HtmlCache();
    const generation = cache.begin();
    cache.set('fr:/', page('old'), generation);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.byteSize).toBe(0);
    cache.set('fr:/', page('rendered before the edit'), generation);
    expect(cache.get('fr:/')).toBeUndefined();
  });
});
