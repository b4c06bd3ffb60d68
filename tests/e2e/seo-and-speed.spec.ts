import { expect, test } from '@playwright/test';
import { PUBLIC_PAGES } from './support';

test('each page has a canonical URL, reciprocal hreflang alternates and Open Graph tags', async ({ page, baseURL }) => {
  await page.goto('/missions?lng=en');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/missions?lng=en`);
  for (const l of ['fr', 'en', 'es']) {
    await expect(page.locator(`link[rel="alternate"][hreflang="${l}"]`)).toHaveAttribute('href', `${baseURL}/missions?lng=${l}`);
  }
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', `${baseURL}/missions`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Our missions | THV Foundation');
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'en_GB');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /four pillars/);
});

test('sitemap.xml lists every public page and published post in each language; robots.txt excludes the admin', async ({ request, baseURL }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of ['/', '/a-propos', '/missions', '/nos-actions', '/partenaires', '/blog', '/contact', '/faire-un-don', '/devenir-membre', '/confidentialite', '/mentions-legales', '/blog/1', '/blog/2']) {
    for (const l of ['fr', 'en', 'es']) expect(sitemap).toContain(`<loc>${baseURL}${path}?lng=${l}</loc>`);
  }
  expect(sitemap).not.toContain('/blog/3');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /admin');
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('anonymous pages come from the HTML cache, each with its own CSP nonce', async ({ request }) => {
  await request.get('/partenaires?lng=fr');
  const first = await request.get('/partenaires', { headers: { cookie: 'lng=fr' } });
  const second = await request.get('/partenaires', { headers: { cookie: 'lng=fr' } });
  expect(second.headers()['x-cache']).toBe('HIT');
  const nonce = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
  const n1 = nonce(first.headers()['content-security-policy']);
  const n2 = nonce(second.headers()['content-security-policy']);
  expect(n1).toBeTruthy();
  expect(n1).not.toBe(n2);
  expect(await second.text()).toContain(`nonce="${n2}"`);
  expect(await second.text()).not.toContain(`nonce="${n1}"`);
  // A language is cached apart from the others.
  const english = await request.get('/partenaires', { headers: { cookie: 'lng=en' } });
  expect(await english.text()).toContain('Our partners');
});

test('security headers are set on every page', async ({ request }) => {
  const response = await request.get('/');
  const h = response.headers();
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['x-powered-by']).toBeUndefined();
});

test('public pages stay on our origin and the home page stays within its JavaScript budget', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  for (const p of PUBLIC_PAGES) {
    const foreign: string[] = [];
    let scriptBytes = 0;
    const onRequest = (r: { url(): string }) => {
      const url = r.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) foreign.push(url);
    };
    page.on('request', onRequest);
    const scripts: Promise<void>[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.body().then((b) => void (scriptBytes += b.length)));
    });
    await page.goto(p.path, { waitUntil: 'networkidle' });
    await Promise.all(scripts);
    page.removeAllListeners('request');
    page.removeAllListeners('response');
    expect(foreign, `requests to other origins from ${p.path}`).toEqual([]);
    // No admin, editor or payment code: public pages load only the small enhancement script.
    expect(scriptBytes, `JavaScript bytes on ${p.path}`).toBeLessThan(20_000);
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
