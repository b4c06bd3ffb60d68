import http from 'node:http';
import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';
import { sitePath } from '~/lib/lang-path';
import { PUBLIC_JS_BUDGET, PUBLIC_PAGES, visitMeasured } from './support';

test('each page has a canonical URL, reciprocal hreflang alternates and Open Graph tags', async ({ page, baseURL }) => {
  await page.goto('/en/missions');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/en/missions`);
  for (const l of ['fr', 'en', 'es'] as const) {
    await expect(page.locator(`link[rel="alternate"][hreflang="${l}"]`)).toHaveAttribute('href', `${baseURL}${sitePath(l, '/missions')}`);
  }
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', `${baseURL}/missions`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Our missions | THV Foundation');
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'en_GB');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /four pillars/);
});

test('sitemap.xml lists every public page and published post in each language; robots.txt excludes the admin', async ({ request, baseURL }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of ['/', '/a-propos', '/missions', '/nos-actions', '/partenaires', '/blog', '/contact', '/faire-un-don', '/devenir-membre', '/confidentialite', '/mentions-legales', '/blog/1', '/blog/2']) {
    for (const l of ['fr', 'en', 'es'] as const) expect(sitemap).toContain(`<loc>${baseURL}${sitePath(l, path)}</loc>`);
  }
  expect(sitemap).not.toContain('/blog/3');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /admin');
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('anonymous pages come from the HTML cache, compressed once, with validators', async ({ request }) => {
  await request.get('/partenaires');
  const hit = await request.get('/partenaires', { headers: { 'accept-encoding': 'br' } });
  expect(hit.headers()['x-cache']).toBe('HIT');
  expect(hit.headers()['content-encoding']).toBe('br');
  expect(await hit.text()).toContain('Nos partenaires');
  const etag = hit.headers().etag;
  const again = await request.get('/partenaires', { headers: { 'if-none-match': etag } });
  expect(again.status()).toBe(304);
  // A language is cached apart from the others, at its own address.
  const english = await request.get('/en/partenaires');
  expect(await english.text()).toContain('Our partners');
  expect(english.headers().etag).not.toBe(etag);
});

test('the donate page comes from the HTML cache per tab and campaign, with its own policy; a made-up tab or campaign is never kept', async ({ request }) => {
  const first = await request.get('/faire-un-don');
  const hit = await request.get('/faire-un-don');
  expect(hit.headers()['x-cache']).toBe('HIT');
  // The policy is the donate page's own (the methods' providers' origins), not the site's default.
  expect(hit.headers()['content-security-policy']).toBe(first.headers()['content-security-policy']);
  expect(await hit.text()).toBe(await first.text());
  for (const query of ['m=nope', 'campagne=pas-une-campagne']) {
    await request.get(`/faire-un-don?${query}`);
    const again = await request.get(`/faire-un-don?${query}`);
    expect(again.status()).toBe(200);
    expect(again.headers()['x-cache']).toBeUndefined();
    expect(again.headers()['cache-control']).toContain('no-store');
  }
});

/** The raw answer to a GET, bytes as sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('a page rendered for one visitor is compressed in one piece, in the encoding the browser takes', async ({ baseURL }) => {
  // A query string keeps the page out of the HTML cache: it is rendered for this request.
  const url = `${baseURL}/missions?utm_source=lettre`;
  const plain = await rawGet(url, { 'accept-encoding': 'identity' });
  expect(plain.headers['x-cache']).toBeUndefined();
  expect(plain.headers['content-encoding']).toBeUndefined();
  const html = plain.body.toString();
  expect(html).toContain('Nos missions');
  for (const [accept, encoding, decode] of [
    ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
    ['gzip', 'gzip', zlib.gunzipSync],
  ] as const) {
    const answer = await rawGet(url, { 'accept-encoding': accept });
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(html.length / 3);
    // The same page: public pages carry no nonce, so each rendering gives the same markup.
    expect(decode(answer.body).toString()).toBe(html);
  }
});

test('a page answered from the cache, before the app, carries the headers the app sent with it', async ({ request }) => {
  // The first answer for a page and host goes through the app (a MISS, or the app's own cache);
  // later ones from the cache before it.
  const first = await request.get('/es/mentions-legales', { headers: { 'accept-encoding': 'gzip' } });
  const hit = await request.get('/es/mentions-legales', { headers: { 'accept-encoding': 'gzip' } });
  expect(hit.headers()['x-cache']).toBe('HIT');
  for (const answer of [first, hit]) expect(answer.headers()['set-cookie']).toBeUndefined();
  const comparable = (h: Record<string, string>) =>
    Object.fromEntries(Object.entries(h).filter(([k]) => !['x-request-id', 'x-cache', 'set-cookie', 'date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
  expect(comparable(hit.headers())).toEqual(comparable(first.headers()));
  expect(hit.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(hit.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(hit.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);
  expect(await hit.text()).toBe(await first.text());
});

test('every public page, in each language, is one a CDN may keep: public with s-maxage, no cookie set, no Vary on cookies', async ({ request, baseURL }) => {
  // Every page the sitemap lists, at its address in each language, asked as a first-time visitor
  // (no cookie): once through the app, once more (from the cache before it).
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(baseURL!, ''));
  expect(pages.length).toBeGreaterThanOrEqual(3 * 13);
  for (const lang of ['en', 'es'] as const) expect(pages).toContain(sitePath(lang, '/faire-un-don'));
  for (const path of pages) {
    for (let i = 0; i < 2; i++) {
      const answer = await request.get(path, { maxRedirects: 0 });
      const h = answer.headers();
      expect(answer.status(), path).toBe(200);
      expect(h['cache-control'], path).toMatch(/^public, max-age=\d+, s-maxage=\d+, stale-while-revalidate=\d+/);
      expect(h['set-cookie'], path).toBeUndefined();
      expect(h.vary ?? '', path).not.toMatch(/cookie/i);
      expect(h.vary ?? '', path).not.toMatch(/accept-language/i);
    }
  }
});

test('the old ?lng= addresses lead for ever to the language’s own; what is someone’s own stays private', async ({ request }) => {
  const moved = await request.get('/faire-un-don?lng=es&campagne=hiver', { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers().location).toBe('/es/faire-un-don?campagne=hiver');
  expect((await request.get('/?lng=en', { maxRedirects: 0 })).headers().location).toBe('/en');
  // Not pages: the feed keeps its own ?lng=.
  expect((await request.get('/blog/feed.xml?lng=en', { maxRedirects: 0 })).status()).toBe(200);
  // A signed-in request (any session cookie) and the donor space are never public.
  const signedIn = await request.get('/en/missions', { headers: { cookie: '__session=someone' } });
  expect(signedIn.headers()['cache-control']).toMatch(/private/);
  expect((await request.get('/en/mon-espace')).headers()['cache-control']).toBe('private, no-store');
  // A page not found is in the language its address names, and not kept.
  const missing = await request.get('/es/no-existe');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('lang="es"');
  expect(missing.headers()['cache-control']).toMatch(/private/);
});

test('security headers: public pages allow only our own script files, no inline script', async ({ request }) => {
  const response = await request.get('/');
  const h = response.headers();
  const csp = h['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).not.toContain('unsafe-inline\'; script');
  const html = await response.text();
  // Every script that runs is a file of ours; structured data (JSON-LD) is data, not script.
  const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes('application/ld+json'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toMatch(/\ssrc="\/assets\//);
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['x-powered-by']).toBeUndefined();
});

test('public pages stay on our origin and the home page stays within its JavaScript budget', async ({ page, baseURL }) => {
  for (const p of PUBLIC_PAGES) {
    const { foreign, scriptBytes } = await visitMeasured(page, p.path, new URL(baseURL!).origin);
    expect(foreign, `requests to other origins from ${p.path}`).toEqual([]);
    // No admin, editor or payment code: public pages load only the small enhancement script.
    expect(scriptBytes, `JavaScript bytes on ${p.path}`).toBeLessThan(PUBLIC_JS_BUDGET);
  }
});

test('images carry their size and resized variants; only the hero loads eagerly', async ({ page }) => {
  await page.goto('/');
  const hero = page.locator('[data-slide] img').first();
  await expect(hero).toHaveAttribute('width', '1600');
  await expect(hero).toHaveAttribute('height', '900');
  await expect(hero).toHaveAttribute('srcset', /-w640\.webp 640w/);
  await expect(hero).toHaveAttribute('loading', 'eager');
  await expect(page.locator('main ul img').first()).toHaveAttribute('loading', 'lazy');
  const response = await page.request.get((await hero.getAttribute('src'))!);
  expect(response.headers()['content-type']).toBe('image/webp');
  expect(response.headers()['cache-control']).toContain('immutable');
});

test('structured data: the foundation on the home page, an Article on each post', async ({ page, baseURL }) => {
  await page.goto('/en');
  const ngo = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ngo).toMatchObject({ '@context': 'https://schema.org', '@type': 'NGO', name: 'THV Foundation', url: `${baseURL}/` });
  expect(ngo.logo).toMatch(new RegExp(`^${baseURL}/media/`));
  expect(ngo.sameAs).toContain('https://www.facebook.com/');
  await page.goto('/es/blog/2');
  const article = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(article).toMatchObject({ '@type': 'Article', headline: 'La vuelta al cole en Thiès', author: { name: 'Admin THV' }, datePublished: '2026-08-20', inLanguage: 'es' });
  expect(article.mainEntityOfPage).toBe(`${baseURL}/es/blog/2`);
});
