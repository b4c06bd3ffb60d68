import { describe, expect, it } from 'vitest';
import { localized, makeI18n, translate } from '~/lib/i18n';
import { chooseLang, fromAcceptLanguage } from '~/lib/i18n.server';
import en from '~/locales/en';
import es from '~/locales/es';
import fr from '~/locales/fr';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));
}

describe('language choice', () => {
  it('takes ?lng= first, then the cookie, then Accept-Language, else French', () => {
    expect(chooseLang('es', 'lng=en', 'en')).toEqual({ lang: 'es', fromQuery: true });
    expect(chooseLang(null, 'a=b; lng=en', 'es')).toEqual({ lang: 'en', fromQuery: false });
    expect(chooseLang('de', 'lng=xx', 'es-MX,es;q=0.9')).toEqual({ lang: 'es', fromQuery: false });
    expect(chooseLang(undefined, undefined, 'de-DE,ja;q=0.5')).toEqual({ lang: 'fr', fromQuery: false });
  });

  it('honours Accept-Language quality values', () => {
    expect(fromAcceptLanguage('fr;q=0.3, en-GB;q=0.8, es;q=0.5')).toBe('en');
    expect(fromAcceptLanguage('es;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage('')).toBeUndefined();
  });
});

describe('translations', () => {
  it('has every French key in English and Spanish, none empty', () => {
    const reference = keys(fr).sort();
    expect(keys(en).sort()).toEqual(reference);
    expect(keys(es).sort()).toEqual(reference);
    for (const dict of [fr, en, es]) for (const k of reference) expect(translate(dict, k as never), k).not.toBe('');
  });

  it('interpolates variables and formats dates in the current language', () => {
    expect(translate(fr, 'blog.by', { author: 'Awa' })).toBe('Par Awa');
    expect(makeI18n('fr', fr).formatDate('2026-10-05')).toBe('5 octobre 2026');
    expect(makeI18n('en', en).formatDate('2026-10-05')).toBe('5 October 2026');
    expect(makeI18n('es', es).formatDate('2026-10-05')).toBe('5 de octubre de 2026');
  });

  it('falls back to French for an empty translated value', () => {
    const t = { fr: { title: 'Bonjour' }, en: { title: '  ' }, es: { title: 'Hola' } };
    expect(localized(t, 'en', 'title')).toBe('Bonjour');
    expect(localized(t, 'es', 'title')).toBe('Hola');
  });
});
