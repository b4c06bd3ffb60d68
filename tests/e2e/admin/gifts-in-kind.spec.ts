import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { expectAccessible } from '../support';
import { makePdf } from '../../support/media-files';
import { setReceiptSettings } from '../../support/receipts';
import { createAccount, serverForSuite, signIn } from './server';

/** The PDF's text as pdftotext reads it (poppler), or as unpdf does where poppler is not installed; spaces folded. */
async function pdfToText(file: string): Promise<string> {
  let text: string;
  try {
    text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    text = (await extractText(await getDocumentProxy(new Uint8Array(fs.readFileSync(file))), { mergePages: true })).text;
  }
  return text.replace(/\s+/g, ' ');
}

const DESCRIPTION = 'Trajets vers l’entrepôt de Rungis';

/**
 * A volunteer's waived expenses (issue 41, ADR 030), in Chromium on SQLite: typed with the keyboard
 * (the mileage scale computes the amount on the server), the evidence attached, the receipt PDF read
 * back: "abandon de frais" and the description; axe-clean, and no sideways scroll at 320 px.
 */
test.describe('gifts in kind and waived expenses', () => {
  test.describe.configure({ timeout: 120_000 });
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    await setReceiptSettings(s.db);
  });
  const type = async (page: Page, text: string) => page.keyboard.type(text);

  test('a waived-expenses gift typed with the keyboard: its receipt PDF says "abandon de frais" and what was waived', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.goto(`${server.baseURL}/admin/cheques`);
    await page.getByRole('link', { name: 'Saisir un don en nature ou un abandon de frais' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Don en nature ou abandon de frais' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Nature du don' }).getByRole('link', { name: 'Abandon de frais' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Saisir un abandon de frais' })).toBeVisible();
    await expectAccessible(page);

    // From the donor search: Tab past "Chercher" to the description, then each field in turn.
    const search = page.getByLabel('Rechercher (nom, e-mail, code postal)');
    await expect(search).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Frais abandonnés (objet, dates) *')).toBeFocused();
    await type(page, DESCRIPTION);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Base de l’évaluation *')).toBeFocused();
    // "Choisir…", then the invoices, then the mileage scale.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Base de l’évaluation *')).toHaveValue('mileage');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Montant en euros (sauf barème kilométrique)')).toBeFocused(); // left empty: the scale computes it
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Kilomètres parcourus pour la fondation')).toBeFocused();
    await type(page, '1200');
    await page.keyboard.press('Tab');
    await type(page, '5');
    await page.keyboard.press('Tab'); // 100 % electric: no
    await page.keyboard.press('Tab'); // the scale's details
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Le bénévole a renoncé par écrit au remboursement *')).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    const evidence = page.getByLabel('Justificatif * (PDF, JPEG ou PNG, 5 Mo au plus)');
    await expect(evidence).toBeFocused();
    // A file chooser is the system's: the file is handed to the focused field.
    await evidence.setInputFiles({ name: 'note-de-frais.pdf', mimeType: 'application/pdf', buffer: makePdf() });
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Nom et prénom *')).toBeFocused();
    for (const [i, text] of ['Luc Bénévole', '', '5 rue du Port', '44000', 'Nantes'].entries()) {
      if (i) await page.keyboard.press('Tab');
      if (text) await type(page, text);
    }
    await page.keyboard.press('Enter');
    // 1 200 km in a 5 CV car: 763,20 €.
    await expect(page.getByText(/^Enregistré : 763,20\s€ — Luc Bénévole \(reçu RF-\d{4}-\d{6}\)\.$/)).toBeVisible();
    const table = page.getByRole('table', { name: 'Derniers dons en nature et abandons de frais saisis' });
    await expect(table).toContainText(`Abandon de frais — ${DESCRIPTION}`);
    await expect(table.getByRole('link', { name: /^note-de-frais\.pdf/ })).toBeVisible();
    const number = (await table.getByText(/^RF-\d{4}-\d{6}$/).first().textContent())!;
    await expectAccessible(page);

    // The evidence downloads for the staff member.
    const evidenceDownload = page.waitForEvent('download');
    await table.getByRole('link', { name: /^note-de-frais\.pdf/ }).click();
    expect(fs.readFileSync(await (await evidenceDownload).path()).equals(makePdf())).toBe(true);

    // The receipt, from the register: read back, it says so.
    await page.goto(`${server.baseURL}/admin/receipts`);
    const register = page.getByRole('table', { name: /^Reçus fiscaux \d{4}$/ });
    await expect(register.getByRole('row', { name: new RegExp(number) })).toContainText('Abandon de frais');
    const download = page.waitForEvent('download');
    await register.getByRole('link', { name: `Télécharger le reçu ${number}` }).click();
    const text = await pdfToText(await (await download).path());
    expect(text).toContain('Nature du don : abandon de frais (autres)');
    expect(text).toContain(`Description : ${DESCRIPTION} (1200 km, voiture de 5 CV, barème kilométrique)`);
    expect(text).toContain('Mode de versement : Abandon de frais');
    expect(text).toContain('763,20 €');
    expect(text).not.toContain('numéraire');

    // At 320 px the screen does not scroll sideways, and stays axe-clean (a refused form included).
    await page.setViewportSize({ width: 320, height: 800 });
    await page.goto(`${server.baseURL}/admin/cheques/nature?type=waived_expenses`);
    await page.getByRole('button', { name: 'Enregistrer le don' }).click();
    await expect(page.getByText('Le bénévole doit avoir renoncé par écrit au remboursement : cochez la case une fois sa renonciation reçue.')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
  });
});
