import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { currentYear } from '~/domain/transparency/years.server';
import { expectAccessible } from '../support';
import { createAccount, serverForSuite, signIn } from './server';

const YEAR = currentYear() - 1;

/**
 * Where the money goes (issue 42, ADR 032), in Chromium on SQLite: an Admin types a year from the
 * approved accounts and publishes it; the public page shows it in French and English (linked from
 * the footer and the donate page), its PDF summary reads back; zero axe violations, and no sideways
 * scroll at 320 px.
 */
test.describe('where the money goes', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
  });

  test('an Admin enters a year and publishes it; the public page shows it in fr and en, accessible at 320 px', async ({ page, request }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Où va l’argent' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Où va l’argent' })).toBeVisible();
    await page.getByRole('link', { name: `Saisir ${YEAR}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Où va l’argent : ${YEAR}` })).toBeVisible();
    await expectAccessible(page);

    // A wrong amount is refused beside its field, in French.
    await page.getByLabel('Dons du public').fill('beaucoup');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.').first()).toBeVisible();

    for (const [label, value] of [
      ['Dons du public', '820 000'],
      ['Cotisations', '30 000'],
      ['Ressource 1 : libellé', 'Subventions'],
      ['Ressource 1 : montant', '150000'],
      ['Mission 1 : libellé', 'Forages à Kaya'],
      ['Mission 1 : montant', '600 000'],
      ['Mission 2 : libellé', 'Bourses scolaires'],
      ['Mission 2 : montant', '220000'],
      ['Frais de collecte', '100000'],
      ['Frais de fonctionnement', '80000'],
      ['En français', 'Une année de forages.'],
      ['En anglais', 'A year of wells.'],
    ] as const)
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByLabel(`Publier ${YEAR} sur la page « Où va votre argent »`).check();
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText(`Année ${YEAR} enregistrée et publiée !`).first()).toBeVisible();
    await page.goto(`${server.baseURL}/admin/transparence`);
    await expect(page.getByRole('table', { name: 'Années saisies' })).toContainText(`${YEAR}Publiée`);

    // The public page, reached from the donate page's discreet link, then from the footer in English.
    await page.context().clearCookies();
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`${server.baseURL}/faire-un-don`);
    await page.getByTestId('money-link').click();
    await expect(page).toHaveURL(`${server.baseURL}/ou-va-votre-argent`);
    await expect(page.getByRole('heading', { level: 1, name: 'Où va votre argent' })).toBeVisible();
    await expect(page.getByTestId('money-headline')).toHaveText(/^82\s%\spour les missions sociales$/);
    await expect(page.getByRole('img', { name: 'Nos ressources', exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: 'L’emploi de nos ressources' }).getByRole('row', { name: /Frais de collecte/ })).toContainText(/100\s000,00\s€\s*10\s%/);
    await expect(page.getByTestId('money-live')).toContainText(`Année ${YEAR + 1} en cours`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);

    await page.goto(`${server.baseURL}/en/a-propos`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Where your money goes' }).click();
    await expect(page).toHaveURL(`${server.baseURL}/en/ou-va-votre-argent`);
    await expect(page.getByTestId('money-headline')).toHaveText('82% for social missions');
    await expect(page.getByText('A year of wells.')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);

    // The page works without JavaScript: it is complete as served.
    const html = await (await request.get(`${server.baseURL}/ou-va-votre-argent`)).text();
    expect(html).toContain('Forages à Kaya');

    // The one-page summary, in English.
    const pdf = await request.get(`${server.baseURL}${await page.getByTestId('money-pdf').getAttribute('href')}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`The ${YEAR} summary`);
    expect(flat).toContain('82% for social missions');
    expect(flat).toContain('Forages à Kaya');
  });
});
