import { describe, expect, it } from 'vitest';
import { ContentMemo } from '~/lib/content-memo.server';

/** A loader that counts its calls and resolves when told to. */
function counted<T>(value: () => T) {
  let calls = 0;
  const load = async () => {
    calls++;
    return value();
  };
  return { load, calls: () => calls };
}

describe('ContentMemo', () => {
  it('loads a key once until content changes, then loads it again', async () => {
    const memo = new ContentMemo();
    let title = 'Accueil';
    const source = counted(() => ({ title }));
    expect(await memo.get('page:home:fr', source.load)).toEqual({ title: 'Accueil' });
    expect(await memo.get('page:home:fr', source.load)).toEqual({ title: 'Accueil' });
    expect(source.calls()).toBe(1);

    title = 'Bienvenue';
    expect(await memo.get('page:home:fr', source.load)).toEqual({ title: 'Accueil' });
    memo.clear();
    expect(await memo.get('page:home:fr', source.load)).toEqual({ title: 'Bienvenue' });
    expect(source.calls()).toBe(2);
  });

  it('keeps each key apart', async () => {
    const memo = new ContentMemo();
    expect(await memo.get('page:home:fr', async () => 'fr')).toBe('fr');
    expect(await memo.get('page:home:en', async () => 'en')).toBe('en');
    expect(await memo.get('page:home:fr', async () => 'other')).toBe('fr');
  });

  it('shares a load in flight: requests arriving together run one query', async () => {
    const memo = new ContentMemo();
    let release!: (v: string) => void;
    let calls = 0;
    const load = () => {
      calls++;
      return new Promise<string>((r) => (release = r));
    };
    const all = Promise.all([memo.get('settings', load), memo.get('settings', load), memo.get('settings', load)]);
    release('réglages');
    expect(await all).toEqual(['réglages', 'réglages', 'réglages']);
    expect(calls).toBe(1);
  });

  it('does not keep a load that started before content changed', async () => {
    const memo = new ContentMemo();
    let release!: (v: string) => void;
    const first = memo.get('settings', () => new Promise<string>((r) => (release = r)));
    memo.clear();
    const second = memo.get('settings', async () => 'après');
    release('avant');
    // Whoever was already waiting gets what was read then; later requests get the new content.
    expect(await first).toBe('avant');
    expect(await second).toBe('après');
    expect(await memo.get('settings', async () => 'encore')).toBe('après');
  });

  it('forgets a failed load, so the next request tries again', async () => {
    const memo = new ContentMemo();
    await expect(memo.get('settings', async () => Promise.reject(new Error('database locked')))).rejects.toThrow('database locked');
    expect(memo.size).toBe(0);
    expect(await memo.get('settings', async () => 'ok')).toBe('ok');
  });

  it('hands out frozen values: one request cannot change what the next one reads', async () => {
    const memo = new ContentMemo();
    const value = await memo.get('page:home:fr', async () => ({ fields: { title: 'Accueil' }, images: ['a.webp'] }));
    expect(() => {
      (value.fields as { title: string }).title = 'Changé';
    }).toThrow(TypeError);
    expect(() => (value.images as string[]).push('b.webp')).toThrow(TypeError);
    expect(await memo.get('page:home:fr', async () => ({ fields: { title: 'x' }, images: [] }))).toEqual({ fields: { title: 'Accueil' }, images: ['a.webp'] });
  });

  it('refuses a Map, which freezing would not protect', async () => {
    const memo = new ContentMemo();
    await expect(memo.get('images', async () => new Map([['a', 1]]))).rejects.toThrow(TypeError);
  });

  it('holds at most its number of entries, forgetting the oldest first', async () => {
    const memo = new ContentMemo(2);
    await memo.get('a', async () => 1);
    await memo.get('b', async () => 2);
    await memo.get('c', async () => 3);
    expect(memo.size).toBe(2);
    expect(await memo.get('a', async () => 10)).toBe(10);
    expect(await memo.get('c', async () => 30)).toBe(3);
  });
});
