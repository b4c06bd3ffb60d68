import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ledgerRow } from '../../support/ledger-rows';
import { expectAccessible } from '../support';
import { createAccount, serverForSuite, signIn } from './server';

const SIREN = '732829320';

/**
 * The accounting export (issue 42, ADR 034), in Chromium on SQLite: an Admin opens "Comptabilité"
 * from the side menu, sets the SIREN in the chart of accounts, and downloads the FEC of the current
 * fiscal year: its name SIRENFECAAAAMMJJ.txt, its header the 18 fields; zero axe violations on both screens.
 */
test.describe('accounting export', () => {
  test.describe.configure({ timeout: 120_000 });
  const year = new Date().getUTCFullYear();
  const server = serverForSuite('sqlite', () => ({}), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    const at = `${year}-01-15T10:00:00.000Z`;
    await s.db.insertInto('donations').values(ledgerRow('g1', at, { amount_minor: 10000, eur_cents: 10000 })).execute();
    await s.db
      .insertInto('provider_balance_moves')
      .values({ id: 'm1', provider: 'stripe', move_ref: 'txn_1', donation_id: 'g1', kind: 'payment', gross_minor: 10000, fee_minor: 175, net_minor: 9825, currency: 'EUR', occurred_at: at, available_at: null, payout_ref: null, fetched_at: at })
      .execute();
  });

  test('an Admin sets the SIREN and downloads the year’s FEC', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Comptabilité' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Comptabilité' })).toBeVisible();
    await expect(page.getByTestId('entries-count')).toHaveText('2');
    await expect(page.getByText('Débits et crédits sont égaux')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'plan comptable' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Plan comptable' })).toBeVisible();
    await page.getByLabel('SIREN').fill(SIREN);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText('Plan comptable enregistré !').first()).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('link', { name: '← Comptabilité' }).click();
    const name = `${SIREN}FEC${year}1231.txt`;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Télécharger le FEC (${name})` }).click()]);
    expect(download.suggestedFilename()).toBe(name);
    const text = (await readFile((await download.path())!)).toString('latin1');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('JournalCode|JournalLib|EcritureNum|EcritureDate|CompteNum|CompteLib|CompAuxNum|CompAuxLib|PieceRef|PieceDate|EcritureLib|Debit|Credit|EcritureLet|DateLet|ValidDate|Montantdevise|Idevise');
    expect(lines.filter(Boolean)).toHaveLength(5);
  });
});
