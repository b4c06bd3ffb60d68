import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { openPreview, openSharedPreview, openForgedPreview, expectPublishedToast } from './preview';

/** A project's drafts, preview, schedule and publication (projects in the editorial workflow, ADR 015). */
const EDITOR = 'eric@example.org';
const toast = (page: Page) => page.locator('[data-toast-region] li');
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`project drafts on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let project = { id: '', fr: '', en: '' };
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Éditeur', EDITOR);
      const row = await s.db.selectFrom('projects').select(['id', 'translations']).where('active', '=', 1).orderBy('date', 'desc').executeTakeFirstOrThrow();
      const t = JSON.parse(row.translations);
      project = { id: row.id, fr: t.fr.title, en: t.en.title };
    });

    test('an Éditeur changes an active project as a draft, previews it in English, schedules it, then publishes it; visitors see it only then', async ({ page, browser }) => {
      const newTitle = `${project.en} — second phase`;
      const visitor = await browser.newContext();
      const visit = await visitor.newPage();
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/actions/${project.id}`);
      await expect(page.getByText('Publié : les visiteurs voient cette version.')).toBeVisible();
      await expectAccessible(page);

      // Typing is autosaved as Éric's copy; "Enregistrer le brouillon" keeps the site as it is.
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill(newTitle);
      await expect(page.getByTestId('autosave-status')).toContainText('Copie enregistrée automatiquement', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await expect(toast(page)).toContainText('Brouillon enregistré');
      await expect(page.getByTestId('draft-state')).toContainText('Les visiteurs voient toujours la version publiée');
      await expectAccessible(page);

      await visit.goto(`${server.baseURL}/en/nos-actions`);
      await expect(visit.getByRole('heading', { name: project.en, exact: true })).toBeVisible();
      await expect(visit.getByText(newTitle)).toHaveCount(0);
      await expect(visit.getByTestId('preview-banner')).toHaveCount(0);

      // "Aperçu" in English: the projects page with the draft in its card, marked, not indexed.
      const preview = await openPreview(page, 'English');
      await expect(preview).toHaveURL(new RegExp(`/en/nos-actions\\?projet=${project.id}&apercu=1#projet-${project.id}$`));
      await expect(preview.getByRole('heading', { name: newTitle })).toBeVisible();
      await expect(preview.getByRole('heading', { name: project.en, exact: true })).toHaveCount(0);
      await expectAccessible(preview);
      await preview.close();
      // The shared link works without an account and is never stored; a forged one shows visitors' page.
      const { shared } = await openSharedPreview(page, visit, 'English');
      await expect(visit.getByRole('heading', { name: newTitle })).toBeVisible();
      // Switching language keeps the preview: French shows the draft's French, still marked.
      await visit.getByTestId('language-menu').locator('summary').click();
      await visit.getByRole('link', { name: 'Français' }).click();
      await expect(visit.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(visit.getByTestId('preview-banner')).toContainText('Aperçu');
      expect(new URL(visit.url()).searchParams.get('apercu')).toBe(shared.searchParams.get('apercu'));
      await openForgedPreview(visit, shared);
      await expect(visit.getByRole('heading', { name: project.en, exact: true })).toBeVisible();
      await expect(visit.getByText(newTitle)).toHaveCount(0);

      // Scheduled for next year: the list says so, the site does not change.
      await page.getByLabel('Date et heure de publication (heure de Paris)').fill(`${new Date().getFullYear() + 1}-03-02T09:30`);
      await page.getByRole('button', { name: 'Programmer' }).click();
      await expect(toast(page)).toContainText('Publication programmée');
      await expect(page).toHaveURL(`${server.baseURL}/admin/actions`);
      const row = page.getByTestId('project-row').filter({ hasText: project.fr });
      await expect(row).toContainText(`Programmé pour le 2 mars ${new Date().getFullYear() + 1} à 09:30`);
      await expectAccessible(page);

      // Reopened, the form continues the draft; "Publier" makes it what visitors see.
      await row.getByRole('link', { name: /Modifier/ }).click();
      await expect(page.getByTestId('draft-state')).toContainText('Programmé pour le');
      await tab(page, 'EN').click();
      await expect(page.getByLabel('Titre * (EN)')).toHaveValue(newTitle);
      await page.getByRole('button', { name: 'Publier' }).click();
      await expectPublishedToast(page, 'Projet modifié !');
      await expect(row).not.toContainText('Programmé pour le');
      await visit.goto(`${server.baseURL}/en/nos-actions`);
      await expect(visit.getByRole('heading', { name: newTitle })).toBeVisible();
      await expect(visit.getByTestId('preview-banner')).toHaveCount(0);
      await visitor.close();
    });
  });
}
