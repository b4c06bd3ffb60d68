import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { openPreview, openSharedPreview, openForgedPreview } from './preview';

const ADMIN = 'alice@example.org';
const EDITOR = 'eric@example.org';

const toast = (page: Page) => page.locator('[data-toast-region] li');
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

/** A wall-clock time in Paris as `<input type="datetime-local">` wants it. */
function parisLocal(at: Date): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(at).replace(' ', 'T');
}

for (const dialect of DIALECTS) {
  test.describe(`editorial workflow on ${dialect}`, () => {
    // One scenario from draft to scheduled publication and restore: it waits for the scheduled minute.
    test.describe.configure({ mode: 'serial', timeout: 240_000 });
    let post = { id: '', fr: '', en: '' };
    const server = serverForSuite(
      dialect,
      () => ({ SCHEDULE_INTERVAL_MS: '2000' }),
      async (s) => {
        await createAccount(s.db, 'Admin', ADMIN);
        await createAccount(s.db, 'Éditeur', EDITOR);
        const row = await s.db.selectFrom('blog_posts').select(['id', 'translations']).where('status', '=', 'Publié').orderBy('date', 'desc').executeTakeFirstOrThrow();
        const t = JSON.parse(row.translations);
        post = { id: row.id, fr: t.fr.title, en: t.en.title };
      },
    );

    test('draft, preview, schedule, publication by the job, restore; a second editor is told who is editing', async ({ page, browser }) => {
      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      const publicEn = `${server.baseURL}/en/blog/${post.id}`;
      const newTitle = `${post.en} — updated`;

      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/blog/${post.id}`);
      await expect(page.getByText('Publié : les visiteurs voient cette version.')).toBeVisible();
      await expectAccessible(page);

      // Typing is autosaved as Éric's copy, not into the post.
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill(newTitle);
      await expect(page.getByTestId('autosave-status')).toContainText('Copie enregistrée automatiquement', { timeout: 15_000 });

      // Alice opens the same post in another browser: she is told Éric is editing it.
      const other = await browser.newContext();
      const alice = await other.newPage();
      await signIn(alice, server.baseURL, ADMIN);
      await alice.goto(`${server.baseURL}/admin/blog/${post.id}`);
      await expect(alice.getByTestId('others-editing')).toContainText(/Modifié par Éric Éditeur (à l'instant|il y a \d+ min)/);
      await expectAccessible(alice);
      await other.close();

      // Éric's tab "crashes": reopened, the page offers his copy back.
      await page.goto(`${server.baseURL}/admin/blog/${post.id}`);
      await page.getByRole('link', { name: 'Restaurer la copie' }).click();
      await tab(page, 'EN').click();
      await expect(page.getByLabel('Titre * (EN)')).toHaveValue(newTitle);

      // Saved as a draft: visitors still see the published post, in the page, the list and the feed.
      // By keyboard: the button is reached and pressed like any other.
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).focus();
      await page.keyboard.press('Enter');
      await expect(toast(page)).toContainText('Brouillon enregistré');
      await expect(page.getByTestId('draft-state')).toContainText('Brouillon en cours');
      await visit.goto(publicEn);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(post.en);
      await visit.goto(`${server.baseURL}/en/blog`);
      await expect(visit.getByText(newTitle)).toHaveCount(0);
      expect(await (await visit.request.get(`${server.baseURL}/blog/feed.xml?lng=en`)).text()).not.toContain(newTitle);

      // "Aperçu" in English: the real article template, marked, not indexed, not stored.
      const preview = await openPreview(page, 'English');
      await expect(preview.getByRole('heading', { level: 1 })).toHaveText(newTitle);
      await preview.close();
      // The signed link works without an account; a forged one does not.
      const { shared } = await openSharedPreview(page, visit, 'English');
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(newTitle);
      await openForgedPreview(visit, shared);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(post.en);

      // Scheduled for the coming minute: the list says so, the site does not change yet.
      const at = parisLocal(new Date(Date.now() + 90_000));
      await page.getByLabel('Date et heure de publication (heure de Paris)').fill(at);
      await page.getByRole('button', { name: 'Programmer' }).click();
      await expect(toast(page)).toContainText('Publication programmée');
      await expect(page).toHaveURL(`${server.baseURL}/admin/blog`);
      await expect(page.getByTestId('post-row').filter({ hasText: post.fr })).toContainText(`Programmé pour le`);
      await expect(page.getByTestId('post-row').filter({ hasText: post.fr })).toContainText(at.slice(11));
      await expectAccessible(page);
      await visit.goto(`${server.baseURL}/en/blog`);
      await expect(visit.getByText(newTitle)).toHaveCount(0);

      // The job publishes it when due; the cached blog page is dropped.
      await expect
        .poll(
          async () => {
            await visit.goto(`${server.baseURL}/en/blog`);
            return visit.getByText(newTitle).count();
          },
          { timeout: 150_000, intervals: [2000] },
        )
        .toBeGreaterThan(0);
      // The blog page links its feed; the feed is well-formed Atom and now holds the post.
      const feedHref = await visit.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href');
      expect(feedHref).toBe(`${server.baseURL}/blog/feed.xml?lng=en`);
      const feed = await visit.evaluate(async (url) => {
        const text = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        return { wellFormed: doc.querySelector('parsererror') === null, root: doc.documentElement.namespaceURI, titles: [...doc.querySelectorAll('entry > title')].map((t) => t.textContent) };
      }, feedHref!);
      expect(feed).toMatchObject({ wellFormed: true, root: 'http://www.w3.org/2005/Atom' });
      expect(feed.titles).toContain(newTitle);

      // History: the version before the change is restored, and visitors see it again.
      await page.goto(`${server.baseURL}/admin/blog/${post.id}`);
      await page.getByRole('link', { name: 'Historique des versions' }).click();
      await expect(page.getByTestId('revision-row').first()).toContainText('Publication');
      const comparison = page.getByTestId('comparison');
      await expectAccessible(page);
      await page.getByLabel('Version de gauche').selectOption('1');
      await page.getByRole('button', { name: 'Comparer' }).click();
      await expect(comparison.getByRole('row', { name: /Titre English/ })).toContainText(post.en);
      await expect(comparison.getByRole('row', { name: /Titre English/ }).locator('ins')).toContainText('updated');
      await page.getByRole('button', { name: 'Restaurer la version 1' }).focus();
      await page.keyboard.press('Enter');
      await expect(toast(page)).toContainText('Version restaurée');
      await visit.goto(publicEn);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(post.en);
      await visitor.close();
    });
  });
}
