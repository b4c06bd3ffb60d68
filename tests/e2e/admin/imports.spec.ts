import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { createType } from '~/domain/membership/types.server';
import { helloassoMemberships, helloassoPayments, utf8Bom } from '../../support/import-files';
import { membershipType } from '../../support/membership';
import { createAccount, serverForSuite, signIn } from './server';

/**
 * Moving in (issue 43, ADR 036), in Chromium on SQLite: a HelloAsso payments export uploaded, its
 * dry run read (refused lines by number), imported, the gifts listed; the same file again adds
 * nothing; a memberships export imported, the members in the register; axe-clean screens.
 */
test.describe('imports', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    await createType(s.db, { id: null, name: 'Seed' }, membershipType({ name_fr: 'Adhésion individuelle', period_model: 'calendar', dues: '20' }));
  });
  const file = { name: 'export-paiements.csv', mimeType: 'text/csv', buffer: utf8Bom(helloassoPayments()) };

  test('upload, dry run, import, gifts listed; the same file again adds nothing', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Importer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Importer des dons' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel(/Fichier CSV/).setInputFiles(file);
    await page.getByRole('button', { name: 'Envoyer et vérifier' }).click();
    await expect(page.getByTestId('import-report')).toContainText('Ligne 6 : la date « 31/02/2024 09:00 » est impossible');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Importer 4 don(s)' }).click();
    await expect(page.getByText('6 ligne(s) traitée(s) sur 6 · 4 don(s) ajouté(s)')).toBeVisible({ timeout: 20_000 });
    await page.goto(`${server.baseURL}/admin/donations?period=all`);
    await expect(page.getByText('jeanne.martin@example.org').first()).toBeVisible();

    await page.goto(`${server.baseURL}/admin/imports`);
    await page.getByLabel(/Fichier CSV/).setInputFiles(file);
    await page.getByRole('button', { name: 'Envoyer et vérifier' }).click();
    await expect(page.getByTestId('import-report')).toContainText('Déjà importés (ignorés)4');
    await page.getByRole('button', { name: 'Importer 0 don(s)' }).click();
    await expect(page.getByText('6 ligne(s) traitée(s) sur 6 · 0 don(s) ajouté(s)')).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page);
  });

  test('a HelloAsso memberships export: the dry run counts members and refuses by line; imported, the members are in the register', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.goto(`${server.baseURL}/admin/imports`);
    await page.getByLabel(/Fichier CSV/).setInputFiles({ name: 'export-adhesions.csv', mimeType: 'text/csv', buffer: utf8Bom(helloassoMemberships()) });
    await page.getByRole('button', { name: 'Envoyer et vérifier' }).click();
    const report = page.getByTestId('import-report');
    await expect(report).toContainText('Ligne 6 : le type d’adhésion « Membre bienfaiteur » n’existe pas ici');
    await expect(page.getByLabel('Le fichier contient')).toHaveValue('members');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Importer 3 adhésion(s)' }).click();
    await expect(page.getByText('6 ligne(s) traitée(s) sur 6 · 3 adhésion(s) ajoutée(s)')).toBeVisible({ timeout: 20_000 });
    await page.goto(`${server.baseURL}/admin/adhesions`);
    await expect(page.getByText('Hugo').first()).toBeVisible();
    await expect(page.getByText('Inès').first()).toBeVisible();
  });
});
