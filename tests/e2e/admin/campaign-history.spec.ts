import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { KAYA, saveCampaignOrThrow } from '../../support/campaigns';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { openPreview, openSharedPreview, openForgedPreview, expectPublishedToast } from './preview';

/** A campaign's drafts, preview and history (campaigns in the editorial workflow, ADR 015). */
const EDITOR = 'eric@example.org';
const toast = (page: Page) => page.locator('[data-toast-region] li');
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`campaign drafts and history on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let id = '';
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Éditeur', EDITOR);
      id = (await saveCampaignOrThrow(s.db, KAYA)).id;
    });

    test('an Éditeur changes an open campaign as a draft, previews it in English, then publishes it; visitors see it only then', async ({ page, browser }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await expect(page.getByText('Publié : les visiteurs voient cette version.')).toBeVisible();
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill('Deep boreholes in Kaya');
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await expect(toast(page)).toContainText('Brouillon enregistré');
      await expect(page.getByTestId('draft-state')).toContainText('Les visiteurs voient toujours la version publiée');
      await expectAccessible(page);

      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      await visit.goto(`${server.baseURL}/en/campagnes/forages-kaya`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Boreholes in Kaya');
      await expect(visit.getByTestId('preview-banner')).toHaveCount(0);

      // "Aperçu" in English: the campaign's own page, marked, not indexed.
      const preview = await openPreview(page, 'English');
      await expect(preview).toHaveURL(/\/en\/campagnes\/forages-kaya\?apercu=1$/);
      await expect(preview.getByRole('heading', { level: 1 })).toHaveText('Deep boreholes in Kaya');
      await preview.close();
      // The shared link works without an account and is never stored; a forged one shows the published page.
      const { shared } = await openSharedPreview(page, visit, 'English');
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Deep boreholes in Kaya');
      await openForgedPreview(visit, shared);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Boreholes in Kaya');

      await page.getByRole('button', { name: 'Publier' }).click();
      await expectPublishedToast(page, 'Campagne modifiée !');
      await visit.goto(`${server.baseURL}/en/campagnes/forages-kaya`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Deep boreholes in Kaya');
      await visitor.close();
    });

    test('an Éditeur compares the published version with the first and restores the first; visitors see it again', async ({ page, browser }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await page.getByRole('link', { name: 'Historique des versions' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/campaigns/${id}/historique`);
      const rows = page.getByTestId('revision-row');
      await expect(rows).toHaveCount(3);
      await expect(rows.first()).toContainText('Publication');
      await expect(rows.nth(1)).toContainText('Brouillon');
      await expectAccessible(page);
      // The published version against the first one (by default the last two: draft and publication, alike).
      await page.getByLabel('Version de gauche').selectOption('1');
      await page.getByRole('button', { name: 'Comparer' }).click();
      await expect(page).toHaveURL(/a=1&b=3/);
      const comparison = page.getByTestId('comparison');
      await expect(comparison.getByRole('row', { name: /Titre English/ })).toContainText('Boreholes in Kaya');
      await expect(comparison.getByRole('row', { name: /Titre English/ }).locator('ins')).toContainText('Deep');

      await page.getByRole('button', { name: 'Restaurer la version 1' }).focus();
      await page.keyboard.press('Enter');
      await expect(toast(page)).toContainText('Version restaurée');
      await expect(rows.first()).toContainText('Restauration');
      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      await visit.goto(`${server.baseURL}/en/campagnes/forages-kaya`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Boreholes in Kaya');
      await visitor.close();
    });

    test('"Brouillon" then "Publier" withdraws the campaign from the site at once', async ({ page, request }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await page.getByLabel('Statut').selectOption('Brouillon');
      await page.getByRole('button', { name: 'Publier' }).click();
      await expect(toast(page)).toContainText('Campagne retirée du site');
      expect((await request.get(`${server.baseURL}/campagnes/forages-kaya`)).status()).toBe(404);
      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await expect(page.getByText('Brouillon : cette campagne n’est pas visible sur le site.')).toBeVisible();
    });
  });
}
