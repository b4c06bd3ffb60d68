import { describe, expect, it } from 'vitest';
import { compareSnapshots, flattenSnapshot, formatParis, parisLocalToUtc, timeAgo, utcToParisLocal, withQuery } from '~/domain/revisions/editorial';
import { checkPreviewToken, previewToken } from '~/domain/revisions/preview.server';

describe('Paris wall-clock times for scheduling', () => {
  it('reads a datetime-local value as Paris time, winter and summer', () => {
    expect(parisLocalToUtc('2026-01-15T09:30')).toBe('2026-01-15T08:30:00.000Z');
    expect(parisLocalToUtc('2026-07-15T09:30')).toBe('2026-07-15T07:30:00.000Z');
    // The night clocks go forward (29 March 2026, 02:00 → 03:00) and back (25 October 2026).
    expect(parisLocalToUtc('2026-03-29T03:30')).toBe('2026-03-29T01:30:00.000Z');
    expect(parisLocalToUtc('2026-10-25T12:00')).toBe('2026-10-25T11:00:00.000Z');
  });

  it('refuses what is not a date and time', () => {
    for (const bad of ['', 'demain', '2026-02-30T10:00', '2026-01-15T25:00', '2026-01-15 09:30', '2026-01-15T09:60']) expect(parisLocalToUtc(bad)).toBeUndefined();
  });

  it('shows a stored UTC instant back in Paris', () => {
    expect(utcToParisLocal('2026-01-15T08:30:00.000Z')).toBe('2026-01-15T09:30');
    expect(utcToParisLocal('2026-07-15T07:30:00.000Z')).toBe('2026-07-15T09:30');
    expect(formatParis('2026-07-15T07:30:00.000Z')).toBe('15 juillet 2026 à 09:30');
  });

  it('says how long ago', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(timeAgo('2026-11-23T09:59:30Z', now)).toBe("à l'instant");
    expect(timeAgo('2026-11-23T09:58:00Z', now)).toBe('il y a 2 min');
    expect(timeAgo('2026-11-23T07:00:00Z', now)).toBe('il y a 3 h');
    expect(timeAgo('2026-11-21T10:00:00Z', now)).toBe('il y a 2 j');
  });
});

describe('revision comparison', () => {
  it('compares field by field and language by language', () => {
    const before = { author: 'Awa', translations: { fr: { title: 'Une clinique ouvre' }, en: { title: 'A clinic opens' } } };
    const after = { author: 'Awa', translations: { fr: { title: 'Une grande clinique ouvre' }, en: { title: 'A clinic opens' } } };
    expect(flattenSnapshot(before)).toEqual({ author: 'Awa', 'translations.fr.title': 'Une clinique ouvre', 'translations.en.title': 'A clinic opens' });
    const diffs = compareSnapshots(before, after);
    expect(diffs.filter((d) => d.changed).map((d) => [d.field, d.lang])).toEqual([['title', 'fr']]);
    const fr = diffs.find((d) => d.lang === 'fr')!;
    expect(fr.parts.filter((p) => p.added).map((p) => p.value.trim())).toEqual(['grande']);
    expect(fr.parts.filter((p) => p.removed)).toEqual([]);
    // A field only one side has is compared with nothing.
    expect(compareSnapshots({}, { image: '/media/a.webp' })).toMatchObject([{ path: 'image', before: '', after: '/media/a.webp', changed: true }]);
  });
});

describe('signed preview links', () => {
  const secret = 'x'.repeat(48);
  const ref = { type: 'post', id: '123' };
  const now = new Date('2026-11-23T10:00:00Z');

  it('opens the item it was made for until it expires', () => {
    const token = previewToken(secret, ref, now, 60_000);
    expect(checkPreviewToken(secret, ref, token, new Date(now.getTime() + 59_000))).toBe(true);
    expect(checkPreviewToken(secret, ref, token, new Date(now.getTime() + 60_000))).toBe(false);
  });

  it('opens nothing else, and cannot be altered or forged', () => {
    const token = previewToken(secret, ref, now, 60_000);
    expect(checkPreviewToken(secret, { type: 'post', id: '124' }, token, now)).toBe(false);
    expect(checkPreviewToken(secret, { type: 'project', id: '123' }, token, now)).toBe(false);
    expect(checkPreviewToken('y'.repeat(48), ref, token, now)).toBe(false);
    const [expires, sig] = token.split('.');
    expect(checkPreviewToken(secret, ref, `${Number(expires) + 3600}.${sig}`, now)).toBe(false);
    for (const bad of ['', '1', 'abc.def', `${expires}.`, '1']) expect(checkPreviewToken(secret, ref, bad, now)).toBe(false);
  });

  it('adds its parameters to a path with or without a query, before its fragment', () => {
    expect(withQuery('/blog/12', { apercu: '1', lng: 'en' })).toBe('/blog/12?apercu=1&lng=en');
    expect(withQuery('/nos-actions?projet=12', { apercu: '1' })).toBe('/nos-actions?projet=12&apercu=1');
    expect(withQuery('/nos-actions?projet=12#projet-12', { apercu: '9.a', lng: 'es' })).toBe('/nos-actions?projet=12&apercu=9.a&lng=es#projet-12');
  });
});

describe('editorial settings', () => {
  it('keeps 50 revisions per item and looks for scheduled items every 30 s unless configured', async () => {
    const { parseEnv } = await import('~/lib/env.server');
    expect(parseEnv({})).toMatchObject({ REVISIONS_KEEP: 50, SCHEDULE_INTERVAL_MS: 30_000 });
    expect(parseEnv({ REVISIONS_KEEP: '7', SCHEDULE_INTERVAL_MS: '2000' })).toMatchObject({ REVISIONS_KEEP: 7, SCHEDULE_INTERVAL_MS: 2000 });
    expect(() => parseEnv({ REVISIONS_KEEP: '0' })).toThrow(/REVISIONS_KEEP/);
  });
});
