import { expect, test } from '@playwright/test';
import type { DonationTable } from '~db/schema';
import { ledgerRow } from '../../support/ledger-rows';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { memberInput, membershipType } from '../../support/membership';
import { expectAccessible } from '../support';
import { BOTH_DIALECTS, createAccount, signIn, skipUnlessAvailable, startAdminServer, type AdminServer } from './server';

/** A few gifts around "now": three months ago, the same month a year earlier, a monthly gift two days ago, a refund. */
function ledger(now = new Date()): DonationTable[] {
  const at = (monthsBack: number, day = 10) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, day, 9)).toISOString();
  const gift = ledgerRow;
  return [
    gift('a', at(3), { amount_minor: 5000, eur_cents: 5000, donor_email: 'Fidele@example.org' }),
    gift('b', at(3, 12), { provider: 'flutterwave', currency: 'XOF', amount_minor: 13119, eur_cents: 2000 }),
    gift('c', at(15), { provider: 'paypal', amount_minor: 4000, eur_cents: 4000, donor_email: 'fidele@example.org' }),
    gift('d', new Date(now.getTime() - 2 * 86_400_000).toISOString(), { frequency: 'monthly', secondary_ref: 'sub_1', amount_minor: 1000, eur_cents: 1000, donor_email: 'nouveau@example.org' }),
    gift('e', at(3, 14), { provider: 'coingate', status: 'refunded', amount_minor: 3000, eur_cents: 3000, donor_email: 'rembourse@example.org' }),
  ];
}

for (const dialect of BOTH_DIALECTS) {
  test.describe(`reports on ${dialect}`, () => {
    skipUnlessAvailable(dialect);
    // One server per dialect for both tests; starting it (and hashing two passwords) is slow on a busy machine.
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let server: AdminServer;
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      server = await startAdminServer(dialect);
      await createAccount(server.db, 'Admin', 'alice@example.org');
      await createAccount(server.db, 'Éditeur', 'eric@example.org');
      await server.db.insertInto('donations').values(ledger()).execute();
      // Members (ADR 021): one joins three months ago; another joined fifteen months ago and renewed in grace three months ago.
      const at = (monthsBack: number, day: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - monthsBack, day, 9)).toISOString();
      const type = await createType(server.db, { id: null, name: 'Seed' }, membershipType());
      const joined = await createMember(server.db, null, memberInput(type, { first_name: 'Nouvelle' }));
      await applyDuesPayment(server.db, { membershipId: joined.id, paymentId: 'dues-new', amountCents: 3000, paidAt: at(3, 10), method: 'card' });
      const renewing = await createMember(server.db, null, memberInput(type, { first_name: 'Fidèle' }));
      await applyDuesPayment(server.db, { membershipId: renewing.id, paymentId: 'dues-old', amountCents: 3000, paidAt: at(15, 10), method: 'card' });
      await applyDuesPayment(server.db, { membershipId: renewing.id, paymentId: 'dues-renew', amountCents: 3000, paidAt: at(3, 12), method: 'cheque' });
    });
    test.afterAll(async () => {
      await server?.stop();
    });

    test('an Admin reads the figures as charts, tables and CSV, with no axe violation', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      // The dashboard's summary leads to the reports.
      const summary = page.getByTestId('reports-summary');
      await expect(summary).toContainText(/80,00\s€ reçus en 3 dons \(\+100\s% par rapport aux 12 mois précédents\) ; 1 donateurs mensuels actifs \(10,00\s€ par mois\)/);
      await page.getByRole('navigation').getByRole('link', { name: 'Rapports' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/rapports`);
      await expect(page.getByRole('heading', { level: 1, name: 'Rapports' })).toBeVisible();

      const monthly = page.getByRole('img', { name: 'Montant des dons par mois, comparé aux mêmes mois un an plus tôt' });
      await expect(monthly).toHaveAccessibleDescription(/^80,00\s€ reçus en 3 dons sur la période : \+100\s% par rapport aux mêmes mois un an plus tôt \(40,00\s€\)\.$/);
      await expect(page.getByRole('img', { name: 'Montant des dons par moyen de paiement' })).toHaveAccessibleDescription(/^Carte \(Stripe\) apporte la plus grande part du montant : 75\s%\.$/);
      await expect(page.getByRole('img', { name: 'Montant des dons ponctuels et mensuels' })).toHaveAccessibleDescription(/Les dons mensuels font 12,5\s% du montant de la période\./);
      await expect(page.getByRole('img', { name: 'Nouveaux donateurs et donateurs fidèles' })).toHaveAccessibleDescription('1 nouveaux donateurs et 1 donateurs fidèles sur la période.');

      // Each chart's numbers in a table, inside a focusable, named region.
      const months = page.getByRole('region', { name: 'Tableau : Dons par mois, comparés aux mêmes mois un an plus tôt' });
      await expect(months).toHaveAttribute('tabindex', '0');
      const threeMonthsAgo = new Date();
      threeMonthsAgo.setUTCDate(10);
      threeMonthsAgo.setUTCMonth(threeMonthsAgo.getUTCMonth() - 3);
      const label = new Intl.DateTimeFormat('fr-FR', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(threeMonthsAgo);
      await expect(months.getByRole('row', { name: new RegExp(`^${label.replace('.', '\\.')} `) })).toHaveText(/2\s*70,00\s€\s*1\s*40,00\s€\s*\+75\s%/);
      await expect(months.getByRole('row', { name: /^Total/ })).toHaveText(/Total\s*3\s*80,00\s€\s*1\s*40,00\s€\s*\+100\s%/);
      const methods = page.getByRole('region', { name: 'Tableau : Dons par moyen de paiement' });
      await expect(methods.getByRole('row')).toHaveText([/Moyen/, /Carte \(Stripe\)\s*2\s*60,00\s€\s*75\s%/, /Mobile money \(Flutterwave\)\s*1\s*20,00\s€\s*25\s%/]);
      const indicators = page.getByRole('region', { name: 'Tableau : Indicateurs' });
      await expect(indicators.getByRole('row', { name: /^Don moyen/ })).toHaveText(/26,67\s€/);
      await expect(indicators.getByRole('row', { name: /^Don médian/ })).toHaveText(/20,00\s€/);
      await expect(indicators.getByRole('row', { name: /^Taux de fidélisation/ })).toHaveText(/100\s%/);

      // The members and their dues, with the same conventions (ADR 021).
      await expect(page.getByRole('img', { name: 'Nouveaux membres, renouvellements et adhésions expirées' })).toHaveAccessibleDescription(
        '1 nouveaux membres, 1 renouvellements et 0 adhésions expirées sur la période ; 2 membres à jour à la fin.',
      );
      const members = page.getByRole('region', { name: 'Tableau : Membres par mois : à jour, nouveaux, renouvelés, expirés' });
      await expect(members.getByRole('row', { name: new RegExp(`^${label.replace('.', '\\.')} `) })).toHaveText(/^\S+\s\d{4}\s*2\s*1\s*1\s*0$/);
      await expect(members.getByRole('row', { name: /^Total/ })).toHaveText(/Total\s*2\s*1\s*1\s*0/);
      await expect(page.getByRole('img', { name: 'Montant des cotisations par mois, comparé aux mêmes mois un an plus tôt' })).toHaveAccessibleDescription(
        /^60,00\s€ encaissés en 2 cotisations sur la période : \+100\s% par rapport aux mêmes mois un an plus tôt \(30,00\s€\)\.$/,
      );
      const dues = page.getByRole('region', { name: 'Tableau : Cotisations encaissées par mois, comparées aux mêmes mois un an plus tôt' });
      await expect(dues.getByRole('row', { name: /^Total/ })).toHaveText(/Total\s*2\s*60,00\s€\s*1\s*30,00\s€\s*\+100\s%/);
      const duesCsv = await page.request.get(`${server.baseURL}${await page.getByRole('link', { name: 'Télécharger en CSV : Cotisations encaissées par mois, comparées aux mêmes mois un an plus tôt' }).getAttribute('href')}`);
      expect((await duesCsv.text()).split('\r\n').at(-2)).toBe('"Total";"2";"60.00";"1";"30.00";"100.0"');
      await expectAccessible(page);

      // The same numbers as CSV, formula-safe.
      const href = await page.getByRole('link', { name: 'Télécharger en CSV : Dons par moyen de paiement' }).getAttribute('href');
      const res = await page.request.get(`${server.baseURL}${href}`);
      expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
      const csv = await res.text();
      expect(csv).toBe('\uFEFF"Moyen";"Dons";"Montant";"Part du montant"\r\n"Carte (Stripe)";"2";"60.00";"75.0"\r\n"Mobile money (Flutterwave)";"1";"20.00";"25.0"\r\n');
      expect((await page.request.get(`${server.baseURL}/admin/rapports/export.csv?table=inconnu`)).status()).toBe(404);

      // Another period: last year's gift alone.
      await page.getByLabel('Période').selectOption('all');
      await page.getByRole('button', { name: 'Afficher' }).click();
      await expect(page.getByRole('region', { name: 'Tableau : Dons par mois, comparés aux mêmes mois un an plus tôt' }).getByRole('row', { name: /^Total/ })).toHaveText(/Total\s*4\s*120,00\s€/);

      // A period without a gift (nor one a year earlier): no chart, no axis of "0 €", every section says so.
      await page.goto(`${server.baseURL}/admin/rapports?period=custom&from=2001-01-01&to=2001-06-30`);
      await expect(page.getByRole('heading', { level: 1, name: 'Rapports' })).toBeVisible();
      for (const title of ['Dons par mois, comparés aux mêmes mois un an plus tôt', 'Dons par moyen de paiement']) {
        const section = page.getByRole('region', { name: title, exact: true });
        await expect(section.getByText('Aucun don sur la période.', { exact: true })).toBeVisible();
        await expect(section.locator('svg')).toHaveCount(0);
      }
      await expect(page.locator('svg[data-chart]')).toHaveCount(0);
      await expect(page.locator('svg text', { hasText: '0 €' })).toHaveCount(0);
      // The membership sections too: nothing moved, nothing collected.
      await expect(page.getByRole('region', { name: 'Cotisations encaissées par mois, comparées aux mêmes mois un an plus tôt', exact: true }).getByText('Aucune cotisation sur la période.', { exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Membres par mois : à jour, nouveaux, renouvelés, expirés', exact: true }).getByText('Aucun nouveau membre, renouvellement ni adhésion expirée sur la période ; 0 membres à jour à la fin.', { exact: true })).toBeVisible();
      await expect(page.locator('[data-chart-empty]')).toHaveCount(6);
      await expectAccessible(page);
    });

    test('an Éditeur has no Rapports entry and may not open the reports', async ({ page }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Rapports' })).toHaveCount(0);
      await expect(page.getByTestId('reports-summary')).toHaveCount(0);
      expect((await page.goto(`${server.baseURL}/admin/rapports`))?.status()).toBe(403);
      expect((await page.request.get(`${server.baseURL}/admin/rapports/export.csv?table=moyens`)).status()).toBe(403);
    });
  });
}
