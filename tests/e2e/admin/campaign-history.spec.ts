import { expect, test, type Page } from '@playwright/test';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

/** A campaign's history (campaigns joined the editorial workflow's revisions, ADR 015). */
const EDITOR = 'eric@example.org';
const toast = (page: Page) => page.locator('[data-toast-region] li');
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`campaign history on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let id = '';
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Éditeur', EDITOR);
      const t = (title: string, summary: string) => ({ title, summary, story: `<p>${summary}</p>` });
      const saved = await saveCampaign(s.db, { id: null, name: 'Test' }, null, {
        slug: 'forages-kaya',
        status: 'active',
        image: '',
        goalCents: 800_000,
        startsOn: null,
        endsOn: null,
        projectId: null,
        translations: { fr: t('Forages à Kaya', 'De l’eau potable'), en: t('Boreholes in Kaya', 'Drinking water'), es: t('Pozos en Kaya', 'Agua potable') },
        amounts: [],
      });
      if (!('campaign' in saved)) throw new Error(`campaign not created: ${saved.error}`);
      id = saved.campaign.id;
    });

    test('an Éditeur changes a campaign, compares the two versions and restores the first; visitors see it again', async ({ page, browser }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill('Deep boreholes in Kaya');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(toast(page)).toContainText('Campagne modifiée !');

      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      await visit.goto(`${server.baseURL}/campagnes/forages-kaya?lng=en`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Deep boreholes in Kaya');

      await page.goto(`${server.baseURL}/admin/campaigns/${id}`);
      await page.getByRole('link', { name: 'Historique des versions' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/campaigns/${id}/historique`);
      const rows = page.getByTestId('revision-row');
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText('Enregistrement');
      await expect(rows.first()).toContainText('Titre');
      await expectAccessible(page);
      const comparison = page.getByTestId('comparison');
      await expect(comparison.getByRole('row', { name: /Titre English/ })).toContainText('Boreholes in Kaya');
      await expect(comparison.getByRole('row', { name: /Titre English/ }).locator('ins')).toContainText('Deep');

      await page.getByRole('button', { name: 'Restaurer la version 1' }).focus();
      await page.keyboard.press('Enter');
      await expect(toast(page)).toContainText('Version restaurée');
      await expect(rows.first()).toContainText('Restauration');
      await visit.goto(`${server.baseURL}/campagnes/forages-kaya?lng=en`);
      await expect(visit.getByRole('heading', { level: 1 })).toHaveText('Boreholes in Kaya');
      await visitor.close();
    });
  });
}
