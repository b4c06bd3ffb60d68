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

/** The public routes of SPEC.md with each language's first heading. */
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
  { path: '/payment/success', h1: { fr: 'Merci pour votre générosité !', en: 'Thank you for your generosity!', es: '¡Gracias por su generosidad!' } },
  { path: '/payment/cancel', h1: { fr: 'Paiement annulé', en: 'Payment cancelled', es: 'Pago cancelado' } },
  { path: '/confidentialite', h1: { fr: 'Politique de confidentialité', en: 'Privacy policy', es: 'Política de privacidad' } },
  { path: '/mentions-legales', h1: { fr: 'Mentions légales', en: 'Legal notice', es: 'Aviso legal' } },
  { path: '/blog/inconnu', h1: { fr: 'Article non trouvé', en: 'Article not found', es: 'Artículo no encontrado' }, status: 404 },
  { path: '/page-qui-n-existe-pas', h1: { fr: 'Page introuvable', en: 'Page not found', es: 'Página no encontrada' }, status: 404 },
];
