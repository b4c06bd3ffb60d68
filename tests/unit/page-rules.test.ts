import { describe, expect, it } from 'vitest';
import { legacyLangAddress, publicPageKey, type PageRequest } from '../../server/page-rules';

const ask = (over: Partial<PageRequest> = {}): PageRequest => ({ method: 'GET', host: '127.0.0.1:3000', pathname: '/a-propos', query: {}, cookie: undefined, ...over });
const PUBLIC_URL = 'https://www.fondation.example';

describe('which answers are everyone’s, and their key', () => {
  it('keys an anonymous GET or HEAD of a page by host and address, the language being part of the address', () => {
    expect(publicPageKey(ask(), undefined)).toBe('127.0.0.1:3000|/a-propos');
    expect(publicPageKey(ask({ method: 'HEAD', pathname: '/en/a-propos' }), undefined)).toBe('127.0.0.1:3000|/en/a-propos');
    expect(publicPageKey(ask({ pathname: '/es' }), undefined)).toBe('127.0.0.1:3000|/es');
    expect(publicPageKey(ask({ cookie: 'theme=dark; lng=en' }), undefined)).toBe('127.0.0.1:3000|/a-propos');
  });

  it('never for a change, a session, a forged host without PUBLIC_URL, or what is not a page', () => {
    expect(publicPageKey(ask({ method: 'POST' }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ cookie: 'a=b; __session=x' }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ cookie: '__donor=x' }), undefined)).toBeUndefined();
    // A browser may send cookies without the space after ';'.
    expect(publicPageKey(ask({ cookie: 'a=b;__session=x' }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ cookie: 'my__session=x' }), undefined)).toBe('127.0.0.1:3000|/a-propos');
    expect(publicPageKey(ask({ host: 'evil.example' }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ host: 'www.fondation.example' }), PUBLIC_URL)).toBe('www.fondation.example|/a-propos');
    for (const pathname of ['/admin', '/admin/blog', '/api/donations/paypal/orders', '/webhooks/stripe', '/media/x.webp', '/payment/success', '/en/payment/cancel', '/healthz', '/readyz', '/mon-espace', '/es/mon-espace', '/mon-espace/connexion', '/admin.data']) {
      expect(publicPageKey(ask({ pathname }), undefined), pathname).toBeUndefined();
    }
    // A path that merely begins like one of those is a page.
    expect(publicPageKey(ask({ pathname: '/administration' }), undefined)).toBe('127.0.0.1:3000|/administration');
  });

  it('lets only the donate page’s tab and campaign vary it, in a fixed order, and nothing long or repeated', () => {
    expect(publicPageKey(ask({ pathname: '/faire-un-don', query: { campagne: 'kaya puits', m: 'card' } }), undefined)).toBe('127.0.0.1:3000|/faire-un-don?m=card&campagne=kaya%20puits');
    expect(publicPageKey(ask({ pathname: '/en/faire-un-don', query: { m: 'paypal' } }), undefined)).toBe('127.0.0.1:3000|/en/faire-un-don?m=paypal');
    expect(publicPageKey(ask({ pathname: '/faire-un-don', query: { utm_source: 'x' } }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ pathname: '/faire-un-don', query: { m: ['card', 'crypto'] } }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ pathname: '/faire-un-don', query: { campagne: 'k'.repeat(101) } }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ pathname: '/faire-un-don', query: { campagne: 'k'.repeat(100) } }), undefined)).toBe(`127.0.0.1:3000|/faire-un-don?campagne=${'k'.repeat(100)}`);
    expect(publicPageKey(ask({ query: { m: 'card' } }), undefined)).toBeUndefined();
    expect(publicPageKey(ask({ query: { lng: 'en' } }), undefined)).toBeUndefined();
  });
});

describe('old ?lng= addresses', () => {
  const pages = (path: string) => !path.startsWith('/blog/feed.xml') && !path.startsWith('/api/');
  it('lead a page to its language’s address, the other parameters kept', () => {
    expect(legacyLangAddress('GET', '/faire-un-don', 'lng=en&campagne=kaya', pages)).toBe('/en/faire-un-don?campagne=kaya');
    expect(legacyLangAddress('HEAD', '/', 'lng=es', pages)).toBe('/es');
    expect(legacyLangAddress('GET', '/en/blog', 'page=2&lng=es', pages)).toBe('/es/blog?page=2');
    expect(legacyLangAddress('GET', '/a-propos', 'lng=fr', pages)).toBe('/a-propos');
  });

  it('leave alone what is not a page, a change, an unknown language and addresses without ?lng=', () => {
    expect(legacyLangAddress('GET', '/blog/feed.xml', 'lng=en', pages)).toBeUndefined();
    expect(legacyLangAddress('POST', '/contact', 'lng=en', pages)).toBeUndefined();
    expect(legacyLangAddress('GET', '/contact', 'lng=de', pages)).toBeUndefined();
    expect(legacyLangAddress('GET', '/contact', '', pages)).toBeUndefined();
    expect(legacyLangAddress('GET', '/contact', 'language=en', pages)).toBeUndefined();
  });
});
