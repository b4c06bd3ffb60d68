import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { createAccount, serverForSuite, signIn } from './server';

/**
 * The 222 bis declaration by fiscal year (issue 42, year-end mends; ADR 035), in Chromium on
 * SQLite: an Admin sets the accounting's fiscal year to open in July; the declaration's picker
 * then offers "Exercice AAAA-AAAA (1er juillet … – 30 juin …)", shows the last closed fiscal year
 * with its deadline three months after its close (its long labels fitting 320 px), and its CSV is
 * named and filled by that year.
 */
test.describe('the 222 bis declaration by fiscal year', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
  });

  test('a fiscal year opening in July names the declaration’s periods and dates its deadline', async ({ page }) => {
    const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' }).format(new Date()).split('-').map(Number);
    const declared = (m >= 7 ? y : y - 1) - 1;
    const name = `${declared}-${declared + 1}`;
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.goto(`${server.baseURL}/admin/comptabilite/plan`);
    await page.getByLabel('Premier mois de l’exercice').selectOption({ label: 'juillet' });
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Plan comptable enregistré !').first()).toBeVisible();

    await page.goto(`${server.baseURL}/admin/receipts/declaration`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Déclaration des dons de l’exercice ${name} (article 222 bis du CGI)`);
    await expect(page.getByLabel('Exercice', { exact: true })).toHaveValue(String(declared));
    await expect(page.getByLabel('Exercice', { exact: true }).locator('option:checked')).toHaveText(`Exercice ${name} (1er juillet ${declared} – 30 juin ${declared + 1})`);
    await expect(page.getByText(`au plus tard le 30/09/${declared + 1}`)).toBeVisible();
    await expect(page.getByText('trois mois après la clôture de l’exercice')).toBeVisible();
    await expectAccessible(page);
    // The long labels still fit 320 px (WCAG 1.4.10), with no sideways scroll.
    await page.setViewportSize({ width: 320, height: 800 });
    await page.reload();
    await expect(page.getByLabel('Exercice', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 800 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exporter les chiffres en CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`declaration-dons-222bis-${name}.csv`);
    const lines = (await readFile((await download.path())!)).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines.slice(1).every((l) => l.startsWith(`"${name}";`))).toBe(true);
  });
});
