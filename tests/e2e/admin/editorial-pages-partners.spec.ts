import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { openPreview, openSharedPreview, expectPublishedToast } from './preview';

const EDITOR = 'eric@example.org';

const toast = (page: Page) => page.locator('[data-toast-region] li');
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`drafts of pages and partners on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let homeEs = '';
    let partner = { id: '', name: '' };
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Éditeur', EDITOR);
      homeEs = JSON.parse((await s.db.selectFrom('page_content').select('texts').where('page_id', '=', 'home').executeTakeFirstOrThrow()).texts).es.heroTitle;
      partner = await s.db.selectFrom('partners').select(['id', 'name']).orderBy('position').executeTakeFirstOrThrow();
    });

    /** The home page as an anonymous Spanish visitor gets it (the HTML cache may answer). */
    const spanishHome = async () => {
      const res = await fetch(`${server.baseURL}/es`);
      return { cache: res.headers.get('x-cache'), html: await res.text() };
    };

    test('an editor drafts the home page, previews it in Spanish, publishes it: visitors see it only then', async ({ page, browser }) => {
      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      const draftTitle = 'Actuar juntos, también mañana';

      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/pages/edit/home`);
      await expect(page.getByText('Publié : les visiteurs voient cette version.')).toBeVisible();
      await expectAccessible(page);

      // Typing is autosaved as a copy; the button makes it a draft, not the page.
      await tab(page, 'ES').click();
      await page.getByLabel('Titre principal (ES)').fill(draftTitle);
      await expect(page.getByTestId('autosave-status')).toContainText('Copie enregistrée automatiquement', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await expect(toast(page)).toContainText('Brouillon enregistré');
      await expect(page.getByTestId('draft-state')).toContainText('Brouillon en cours');
      await expect(page.getByRole('button', { name: 'Abandonner le brouillon' })).toBeVisible();
      await expectAccessible(page);

      // Visitors still get the published page, served from the cache once warm.
      await visit.goto(`${server.baseURL}/es`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(homeEs);
      await spanishHome();
      const warm = await spanishHome();
      expect(warm.cache).toBe('HIT');
      expect(warm.html).toContain(homeEs);
      expect(warm.html).not.toContain(draftTitle);

      // "Aperçu" in Spanish: the real home template, with the banner, not indexed.
      const preview = await openPreview(page, 'Español');
      await expect(preview.getByRole('heading', { level: 1 })).toHaveText(draftTitle);
      await expect(preview).toHaveTitle(/^Vista previa : /);
      await preview.close();

      // A colleague without an account opens the signed link: the draft, never stored by a cache…
      const { res: sharedRes } = await openSharedPreview(page, visit, 'Español');
      expect(sharedRes.headers()['x-cache']).toBeUndefined();
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(draftTitle);
      // …so the next anonymous visit of the same page still gets the published version.
      const after = await spanishHome();
      expect(after.cache).toBe('HIT');
      expect(after.html).toContain(homeEs);
      expect(after.html).not.toContain(draftTitle);

      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Contenu sauvegardé !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/pages`);
      await visit.goto(`${server.baseURL}/es`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText(draftTitle);
      await expect(visit.getByTestId('preview-banner')).toHaveCount(0);
      expect((await spanishHome()).html).toContain(draftTitle);
      await visitor.close();
    });

    test('a partner’s change is a draft until "Publier"; its preview shows it in place', async ({ page, browser }) => {
      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      const draftName = `${partner.name} International`;

      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/partners/${partner.id}`);
      await expectAccessible(page);
      await page.getByLabel('Nom *').fill(draftName);
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await expect(toast(page)).toContainText('Brouillon enregistré');
      await expect(page.getByTestId('draft-state')).toContainText('Brouillon en cours');
      await expectAccessible(page);

      await visit.goto(`${server.baseURL}/en/partenaires`);
      await expect(visit.getByText(partner.name, { exact: true })).toBeVisible();
      await expect(visit.getByText(draftName)).toHaveCount(0);

      const preview = await openPreview(page, 'English');
      await expect(preview.getByText(draftName, { exact: true })).toBeVisible();
      await expect(preview.getByText(partner.name, { exact: true })).toHaveCount(0);
      await preview.close();

      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Partenaire modifié !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/partners`);
      await expect(page.getByTestId('partner-row').filter({ hasText: draftName })).toHaveCount(1);
      await visit.goto(`${server.baseURL}/en/partenaires`);
      await expect(visit.getByText(draftName, { exact: true })).toBeVisible();
      await visitor.close();
    });
  });
}
