import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { E2E_DATA_DIR } from '../../playwright.config';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Zero axe-core violations for the WCAG 2.2 AA tags; the failure message lists them. The page is
 * judged settled: running CSS animations and transitions (the page's 240 ms fade-in) finish first,
 * else axe may sample a colour half-way (seen once in CI: a contrast "violation" mid-fade). Only
 * running, finite ones are awaited, and never more than a second (a paused one never finishes).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** The JavaScript a public page may load, in bytes: the small enhancement scripts only (ADR 003). */
export const PUBLIC_JS_BUDGET = 20_000;

/**
 * Opens `path` until the network is idle; answers the bytes of JavaScript it loaded and the
 * requests it sent anywhere but `origin`.
 */
export async function visitMeasured(page: Page, path: string, origin: string): Promise<{ scriptBytes: number; foreign: string[] }> {
  const foreign: string[] = [];
  let scriptBytes = 0;
  const scripts: Promise<void>[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) foreign.push(url);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r.body().then((b) => void (scriptBytes += b.length)));
  });
  try {
    await page.goto(path, { waitUntil: 'networkidle' });
    await Promise.all(scripts);
  } finally {
    page.removeAllListeners('request');
    page.removeAllListeners('response');
  }
  return { scriptBytes, foreign };
}

/** Read-only look at the server's SQLite database, to check what a form stored. */
export function readDb<T>(query: (db: Database.Database) => T): T {
  const db = new Database(path.join(E2E_DATA_DIR!, 'site.sqlite'), { readonly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

/** The public routes with each language's first heading. */
export const PUBLIC_PAGES: { path: string; h1: Record<'fr' | 'en' | 'es', string | RegExp>; status?: number }[] = [
  { path: '/', h1: { fr: 'Agir ensemble pour un avenir digne', en: 'Acting together for a dignified future', es: 'Actuar juntos por un futuro digno' } },
  { path: '/a-propos', h1: { fr: 'À propos de la fondation', en: 'About the foundation', es: 'Sobre la fundación' } },
  { path: '/missions', h1: { fr: 'Nos missions', en: 'Our missions', es: 'Nuestras misiones' } },
  { path: '/nos-actions', h1: { fr: 'Nos actions', en: 'Our projects', es: 'Nuestras acciones' } },
  { path: '/partenaires', h1: { fr: 'Nos partenaires', en: 'Our partners', es: 'Nuestros socios' } },
  { path: '/blog', h1: { fr: 'Actualités', en: 'News', es: 'Noticias' } },
  { path: '/blog/1', h1: { fr: 'Retour sur la caravane médicale', en: 'Looking back at the medical caravan', es: 'Balance de la caravana médica' } },
  { path: '/contact', h1: { fr: 'Contactez-nous', en: 'Contact us', es: 'Contáctenos' } },
  { path: '/faire-un-don', h1: { fr: 'Faire un don', en: 'Donate', es: 'Donar' } },
  { path: '/devenir-membre', h1: { fr: 'Rejoignez Notre Communauté', en: 'Join Our Community', es: 'Únase a Nuestra Comunidad' } },
  { path: '/devenir-membre/merci', h1: { fr: 'Merci pour votre adhésion', en: 'Thank you for joining', es: 'Gracias por su afiliación' } },
  { path: '/devenir-membre/annule', h1: { fr: 'Paiement annulé', en: 'Payment cancelled', es: 'Pago cancelado' } },
  { path: '/payment/success', h1: { fr: 'Merci pour votre générosité !', en: 'Thank you for your generosity!', es: '¡Gracias por su generosidad!' } },
  { path: '/payment/cancel', h1: { fr: 'Paiement annulé', en: 'Payment cancelled', es: 'Pago cancelado' } },
  { path: '/confidentialite', h1: { fr: 'Politique de confidentialité', en: 'Privacy policy', es: 'Política de privacidad' } },
  { path: '/mentions-legales', h1: { fr: 'Mentions légales', en: 'Legal notice', es: 'Aviso legal' } },
  { path: '/ou-va-votre-argent', h1: { fr: 'Où va votre argent', en: 'Where your money goes', es: 'Adónde va su dinero' } },
  { path: '/blog/inconnu', h1: { fr: 'Article non trouvé', en: 'Article not found', es: 'Artículo no encontrado' }, status: 404 },
  { path: '/page-qui-n-existe-pas', h1: { fr: 'Page introuvable', en: 'Page not found', es: 'Página no encontrada' }, status: 404 },
];

/** A phone's viewport, for the checks a small screen makes hard (the focus walk). */
export const PHONE = { width: 390, height: 844 };

/**
 * Focus not obscured (WCAG 2.2, 2.4.11): presses Tab (or Shift+Tab) from the page's start (or end)
 * through every focusable element until the focus leaves the page or comes back round, and after
 * each press checks that the focused element is on screen and not under anything drawn over it:
 * the element itself (or a part of it) is what the page shows at its centre, and nothing of it is
 * under the sticky header. Answers what it visited; fails listing every element found covered.
 */
export async function expectFocusNeverObscured(page: Page, key: 'Tab' | 'Shift+Tab'): Promise<string[]> {
  // A toast (5 s, then gone) is drawn over the page's foot: the walk starts once it has left.
  await expect(page.locator('[data-toast-region] li')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate((backwards) => {
    (document.activeElement as HTMLElement | null)?.blur?.();
    window.scrollTo(0, backwards ? document.documentElement.scrollHeight : 0);
    document.querySelectorAll('[data-focus-walked]').forEach((e) => e.removeAttribute('data-focus-walked'));
  }, key === 'Shift+Tab');
  const visited: string[] = [];
  const covered: string[] = [];
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press(key);
    const seen = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      // Come back round: every element was visited once.
      if (el.hasAttribute('data-focus-walked')) return null;
      el.setAttribute('data-focus-walked', '');
      const name = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"${el.id ? `#${el.id}` : ''}`;
      const r = el.getBoundingClientRect();
      const problems: string[] = [];
      if (r.width === 0 || r.height === 0) return { name, problems: ['has no size on screen'] };
      // An inline link may wrap: each of its line boxes is a place it shows; one seen is enough.
      const boxes = [...el.getClientRects()].filter((b) => b.width > 0 && b.height > 0);
      const centres = boxes.map((b) => [b.left + b.width / 2, b.top + b.height / 2] as const);
      const onScreen = centres.filter(([x, y]) => y >= 0 && y <= window.innerHeight && x >= 0 && x <= window.innerWidth);
      if (onScreen.length === 0) problems.push(`off screen (top ${Math.round(r.top)})`);
      else {
        const hits = onScreen.map(([x, y]) => document.elementFromPoint(x, y));
        if (!hits.some((hit) => hit && el.contains(hit))) {
          const hit = hits[0];
          problems.push(`its centre shows ${hit?.tagName.toLowerCase()}${hit?.closest('header') ? ' of the header' : ''}`);
        }
      }
      // Drawn over the page (the skip link), an element is above the header, not under it.
      const header = document.querySelector('header[data-sticky-header]');
      if (header && !header.contains(el) && getComputedStyle(el).position !== 'fixed') {
        const h = header.getBoundingClientRect();
        if (r.top < h.bottom - 0.5) problems.push(`its top (${Math.round(r.top)}) is under the sticky header (bottom ${Math.round(h.bottom)})`);
      }
      return { name, problems };
    });
    if (!seen) break;
    visited.push(seen.name);
    if (seen.problems.length) covered.push(`${seen.name}: ${seen.problems.join('; ')}`);
  }
  expect(covered, `focused elements covered on ${page.url()} (${key})`).toEqual([]);
  expect(visited.length, `the walk (${key}) reached focusable elements`).toBeGreaterThan(3);
  return visited;
}
