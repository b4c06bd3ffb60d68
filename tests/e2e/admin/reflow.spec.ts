import { expect, test, type Page } from '@playwright/test';
import { MANAGED_PAGES } from '~/domain/content/pages';
import { expectAccessible, PUBLIC_PAGES } from '../support';
import { DIALECTS, createAccount, signIn, startAdminServer, type AdminServer } from './server';

/**
 * Reflow (WCAG 2.2, 1.4.10): at 320 × 640 CSS px, no public page (fr) and no back-office screen
 * scrolls sideways. A wide table may scroll inside its own region; the page itself may not.
 */
const WIDTH = 320;

async function overflowOf(page: Page, url: string): Promise<string | null> {
  const res = await page.goto(url);
  expect(res, url).not.toBeNull();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width <= WIDTH) return null;
  // Name the widest elements, to say what to fix.
  const culprits = await page.evaluate((limit) => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.right > limit + 1 && r.width > 0 && !Array.from(el.children).some((c) => c.getBoundingClientRect().right > limit + 1)) {
        out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).slice(0, 60)} (${Math.round(r.right)})`);
      }
    }
    return out.slice(0, 3);
  }, WIDTH);
  return `${new URL(url).pathname}${new URL(url).search}: ${width}px — ${culprits.join(', ')}`;
}

test.describe('reflow at 320 px', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ viewport: { width: WIDTH, height: 640 } });
  const ids: Record<string, string> = {};
  let server: AdminServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startAdminServer(DIALECTS[0]);
    const s = server;
    const admin = await createAccount(s.db, 'Admin', 'alice@example.org');
    const editor = await createAccount(s.db, 'Éditeur', 'eric@example.org');
    const now = new Date().toISOString();
    await s.db
      .insertInto('messages')
      .values({ id: 'reflow-message', first_name: 'Aïssatou', last_name: 'Diallo', email: 'aissatou.diallo.une.adresse.tres.longue@example.org', message: 'Bonjour, '.repeat(40), language: 'fr', read_at: null, created_at: now })
      .execute();
    ids.admin = admin.id;
    ids.editor = editor.id;
    ids.project = String((await s.db.selectFrom('projects').select('id').executeTakeFirstOrThrow()).id);
    ids.post = String((await s.db.selectFrom('blog_posts').select('id').executeTakeFirstOrThrow()).id);
    ids.partner = String((await s.db.selectFrom('partners').select('id').executeTakeFirstOrThrow()).id);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('no public page (fr) scrolls sideways', async ({ page }) => {
    const wide: string[] = [];
    for (const p of PUBLIC_PAGES) {
      const problem = await overflowOf(page, `${server.baseURL}${p.path}`);
      if (problem) wide.push(problem);
    }
    for (const m of ['card', 'crypto', 'paypal', 'mobileMoney']) {
      const problem = await overflowOf(page, `${server.baseURL}/faire-un-don?m=${m}`);
      if (problem) wide.push(problem);
    }
    expect(wide).toEqual([]);
    // What changed for 320 px keeps zero axe-core violations.
    await page.goto(`${server.baseURL}/missions`);
    await expectAccessible(page);
  });

  test('no back-office screen scrolls sideways', async ({ page }) => {
    const wide: string[] = [];
    for (const path of ['/admin/login', '/admin/mot-de-passe-oublie']) {
      const problem = await overflowOf(page, `${server.baseURL}${path}`);
      if (problem) wide.push(problem);
    }
    await signIn(page, server.baseURL, 'alice@example.org');
    const screens = [
      '/admin/dashboard',
      '/admin/pages',
      ...MANAGED_PAGES.map((p) => `/admin/pages/edit/${p.id}`),
      '/admin/actions',
      '/admin/actions/new',
      `/admin/actions/${ids.project}`,
      `/admin/actions/${ids.project}/supprimer`,
      '/admin/blog',
      '/admin/blog/new',
      `/admin/blog/${ids.post}`,
      `/admin/blog/${ids.post}/supprimer`,
      '/admin/partners',
      '/admin/partners/new',
      `/admin/partners/${ids.partner}`,
      `/admin/partners/${ids.partner}/supprimer`,
      '/admin/media',
      '/admin/messages',
      '/admin/messages/reflow-message',
      '/admin/messages/reflow-message/supprimer',
      '/admin/payments',
      '/admin/donations',
      '/admin/donations?period=all',
      '/admin/rapports',
      '/admin/users',
      '/admin/users/new',
      `/admin/users/${ids.editor}`,
      `/admin/users/${ids.editor}/supprimer`,
      '/admin/settings',
      '/admin/mon-compte',
      '/admin/inconnu',
    ];
    for (const path of screens) {
      const problem = await overflowOf(page, `${server.baseURL}${path}`);
      if (problem) wide.push(problem);
    }
    expect(wide).toEqual([]);

    // A wide list scrolls inside its own focusable, named region; axe finds nothing at this width.
    await page.goto(`${server.baseURL}/admin/messages`);
    const region = page.getByRole('region', { name: "Messages du formulaire de contact, les plus récents d'abord" });
    await expect(region).toHaveAttribute('tabindex', '0');
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expectAccessible(page);
    for (const path of ['/admin/messages/reflow-message', '/admin/rapports']) {
      await page.goto(`${server.baseURL}${path}`);
      await expectAccessible(page);
    }
    // The menu drawer fits the screen.
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: "Menu d'administration" });
    await expect(drawer).toBeVisible();
    // Measured once it has slid in (it opens with a 200 ms animation from the left).
    await drawer.evaluate((el) => Promise.all(el.getAnimations().map((an) => an.finished)));
    const box = (await drawer.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  });
});
