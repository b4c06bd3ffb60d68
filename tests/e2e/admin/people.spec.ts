import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { gift } from '../../support/people';
import { createAccount, serverForSuite, signIn } from './server';

/**
 * The donors register (issue 44, ADR 038), in Chromium on SQLite: two records of one person (same
 * name and postal code under two addresses) suggested, compared and merged; a note and a tag written
 * on the merged record are kept on the survivor, whose figures sum both; zero axe violations and no
 * sideways scroll at 320 px.
 */
const tax = (name: string) => JSON.stringify({ kind: 'individual', name, company: '', siren: '', address: '3 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'France' });

test.describe('donors register', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    const year = new Date().getUTCFullYear();
    await gift(s.db, 'g1', 'awa@example.org', `${year}-01-10T10:00:00.000Z`, { eur_cents: 5000, tax_details: tax('Awa Diallo') });
    await gift(s.db, 'g2', 'a.diallo@work.example', `${year}-01-12T10:00:00.000Z`, { eur_cents: 12000, tax_details: tax('DIALLO Awa') });
  });

  test('an Admin merges two records of one person; the note and the tag are kept; accessible at 320 px', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Donateurs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Donateurs' })).toBeVisible();
    await expect(page.getByTestId('people-count')).toHaveText('2 fiches');
    await expectAccessible(page);

    // A note and a tag on the second record.
    await page.getByRole('link', { name: 'Voir la fiche de DIALLO Awa' }).click();
    await page.getByLabel('Nouvelle note').fill('Rencontrée au gala de juin.');
    await page.getByRole('button', { name: 'Enregistrer la note' }).click();
    await expect(page.getByText('Note enregistrée.')).toBeVisible();
    await page.getByLabel('Ajouter une étiquette (nouvelle ou existante)').fill('Gala 2026');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect(page.getByTestId('person-tags')).toContainText('Gala 2026');
    await expectAccessible(page);

    // Suggested (same name and postal code), compared side by side, merged into the first.
    await page.getByRole('link', { name: 'Doublons' }).click();
    await expect(page.getByRole('table', { name: 'Doublons possibles' })).toContainText('même nom et même code postal');
    await expectAccessible(page);
    await page.getByRole('link', { name: /^Comparer/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Comparer deux fiches' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('radio', { name: 'Awa Diallo' }).check();
    await page.getByRole('button', { name: 'Fusionner' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Awa Diallo' })).toBeVisible();
    await expect(page.getByTestId('person-notes')).toContainText('Rencontrée au gala de juin.');
    await expect(page.getByTestId('person-tags')).toContainText('Gala 2026');
    await expect(page.getByTestId('person-figures')).toContainText(/170,00\s€/);
    await expect(page.getByText('a.diallo@work.example').first()).toBeVisible();

    // One record left; both screens fit 320 px.
    await page.setViewportSize({ width: 320, height: 800 });
    await expect(page.getByRole('heading', { level: 1, name: 'Awa Diallo' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
    await page.goto(`${server.baseURL}/admin/donateurs`);
    await expect(page.getByTestId('people-count')).toHaveText('1 fiche');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
  });
});
