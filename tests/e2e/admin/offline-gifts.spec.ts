import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { recordSucceeded } from '~/domain/donations/ledger.server';
import { expectAccessible } from '../support';
import { DONOR, setReceiptSettings } from '../../support/receipts';
import { createAccount, serverForSuite, signIn } from './server';

/** Five cheques of a pile: the first from a donor known by an online gift, found by postal code. */
const CHEQUES = [
  { amount: '120,50', number: '0000101', bank: 'La Banque Postale' },
  { amount: '50', number: '0000102', bank: 'Crédit Agricole', name: 'Jeanne Martin', address: '8 avenue Foch', postal: '69006', city: 'Lyon' },
  { amount: '30', number: '0000103', bank: 'CIC', name: 'Paul Durand', address: '2 rue Haute', postal: '33000', city: 'Bordeaux' },
  { amount: '200', number: '0000104', bank: 'Société Générale', name: 'Fatou Ndiaye', address: '5 quai Sud', postal: '44000', city: 'Nantes' },
  { amount: '15,25', number: '0000105', bank: 'BNP Paribas', name: 'Louis Petit', address: '1 place Ronde', postal: '59000', city: 'Lille' },
];

/**
 * Gifts received by post (issue 41, ADR 028), in Chromium on SQLite: a batch of five cheques typed
 * with the keyboard alone, its running count and total, its deposit slip read back, each gift in the
 * register with its receipt; axe-clean, and no sideways scroll at 320 px.
 */
test.describe('cheques received by post', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    await setReceiptSettings(s.db);
    await recordSucceeded(s.db, { provider: 'paypal', providerRef: 'ORDER-KNOWN', amountMinor: 2000, currency: 'EUR', eurCents: 2000, frequency: 'once', language: 'fr', donorName: DONOR.name, donorEmail: 'awa@example.org', taxDetails: JSON.stringify(DONOR) });
  });

  const typeInto = async (page: Page, text: string) => page.keyboard.type(text);

  test('a batch of five cheques typed with the keyboard, its deposit slip, each gift with its receipt', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Chèques et virements' }).click();
    await page.getByRole('button', { name: 'Nouvelle remise de chèques' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Remise de chèques n° \d+$/ })).toBeVisible();
    const search = page.getByLabel('Rechercher (nom, e-mail, code postal)');
    await expect(search).toBeFocused();
    await expectAccessible(page);

    // 1. A known donor: searched by postal code, chosen, then amount, number, bank, Enter.
    await typeInto(page, '75011');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: `Choisir ${DONOR.name}` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Montant en euros *')).toBeFocused();
    await expect(page.getByLabel('Nom et prénom *')).toHaveValue(DONOR.name);
    const [first, ...others] = CHEQUES;
    for (const [i, text] of [first.amount, first.number, first.bank].entries()) {
      if (i) await page.keyboard.press('Tab');
      await typeInto(page, text);
    }
    await page.keyboard.press('Enter');
    await expect(page.getByText(/^Enregistré : 120,50\s€ — Awa Diallo \(reçu RF-\d{4}-\d{6}\)\.$/)).toBeVisible();
    await expect(page.getByTestId('batch-totals')).toHaveText(/^1 chèque — 120,50\s€$/);

    // 2–5. New donors: from the search field, Tab twice to the amount, then each field in turn (the e-mail left empty).
    for (const c of others) {
      await expect(search).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Montant en euros *')).toBeFocused();
      for (const [i, text] of [c.amount, c.number, c.bank, c.name!, '', c.address!, c.postal!, c.city!].entries()) {
        if (i) await page.keyboard.press('Tab');
        if (text) await typeInto(page, text);
      }
      await page.keyboard.press('Enter');
      await expect(page.getByText(new RegExp(`^Enregistré : .* — ${c.name} \\(reçu RF-`))).toBeVisible();
    }
    await expect(page.getByTestId('batch-totals')).toHaveText(/^5 chèques — 415,75\s€$/);
    const rows = page.getByRole('table', { name: /^Chèques de la remise n° \d+$/ }).getByRole('row');
    await expect(rows).toHaveCount(6);
    for (let i = 1; i <= 5; i++) await expect(rows.nth(i)).toContainText(/RF-\d{4}-\d{6}/);
    await expectAccessible(page);

    // The deposit slip: each cheque's number, bank, drawer and amount, the count and the total.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Bordereau de remise (PDF)' }).click();
    const file = await (await download).path();
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(fs.readFileSync(file))), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Bordereau de remise de chèques');
    for (const c of CHEQUES) expect(flat).toContain(`${c.number} ${c.bank} ${c.name ?? DONOR.name}`);
    expect(flat).toContain('Nombre de chèques : 5');
    expect(flat).toContain('Total de la remise : 415,75 €');

    // Each gift in the receipts' register, as a gift made online.
    await page.goto(`${server.baseURL}/admin/receipts`);
    const register = page.getByRole('table', { name: /^Reçus fiscaux \d{4}$/ });
    for (const name of [DONOR.name, ...others.map((c) => c.name!)]) await expect(register).toContainText(name);

    // At 320 px the batch screen does not scroll sideways, and stays axe-clean.
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`${server.baseURL}/admin/cheques`);
    await page.getByRole('link', { name: /^Remise n° \d+$/ }).first().click();
    await expect(page.getByTestId('batch-totals')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
  });
});
