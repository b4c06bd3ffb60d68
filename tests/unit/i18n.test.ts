import { describe, expect, it } from 'vitest';
import { hasLangPrefix, langOfPath, localized, makeI18n, pathWithoutLang, sitePath, translate } from '~/lib/i18n';
import { siteUrl } from '~/lib/lang-path';
import { chooseLang, fromAcceptLanguage } from '~/lib/i18n.server';
import en from '~/locales/en';
import es from '~/locales/es';
import fr from '~/locales/fr';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));
}

describe('language choice', () => {
  it("takes the address's language prefix first, then ?lng=, else French", () => {
    expect(chooseLang('/en/faire-un-don', 'es')).toEqual({ lang: 'en' });
    expect(chooseLang('/es', null)).toEqual({ lang: 'es' });
    expect(chooseLang('/api/donations/paypal/orders', 'es')).toEqual({ lang: 'es' });
    expect(chooseLang('/faire-un-don', 'de')).toEqual({ lang: 'fr' });
    expect(chooseLang('/entreprises', undefined)).toEqual({ lang: 'fr' });
    expect(chooseLang('/', undefined)).toEqual({ lang: 'fr' });
  });

  it('gives each page one address per language, French without a prefix', () => {
    expect(sitePath('en', '/a-propos')).toBe('/en/a-propos');
    expect(sitePath('es', '/')).toBe('/es');
    expect(sitePath('en', '/?page=2')).toBe('/en?page=2');
    expect(sitePath('en', '/#dons')).toBe('/en#dons');
    expect(sitePath('es', '/a#dons')).toBe('/es/a#dons');
    // With an origin (mails, letters), or without (a path on our own site).
    expect(siteUrl('https://dons.example.org', 'en', '/faire-un-don')).toBe('https://dons.example.org/en/faire-un-don');
    expect(siteUrl('https://dons.example.org', 'fr', '/')).toBe('https://dons.example.org/');
    expect(siteUrl(undefined, 'es', '/mon-espace')).toBe('/es/mon-espace');
    expect(sitePath('fr', '/blog/3')).toBe('/blog/3');
    expect(pathWithoutLang('/en/blog/3')).toBe('/blog/3');
    expect(pathWithoutLang('/es')).toBe('/');
    expect(pathWithoutLang('/english')).toBe('/english');
    expect(langOfPath('/es/contact')).toBe('es');
    expect(langOfPath('/estival')).toBe('fr');
    expect(hasLangPrefix('/en')).toBe(true);
    expect(hasLangPrefix('/fr/a-propos')).toBe(false);
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
