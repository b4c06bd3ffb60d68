import { expect, test } from '@playwright/test';
import { savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { expectAccessible } from '../support';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { fakeCardFee } from '../../fakes/stripe-balance';
import { createAccount, DIALECTS, serverForSuite, signIn } from './server';

const WHSEC = 'whsec_e2e_payouts';
const APP_SECRET = 'e2e-payouts-secret-'.padEnd(48, 'p');
const euros = (cents: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** The payout reconciliation (ADR 033): two card gifts through the fake Stripe, paid out, shown with their fees. */
for (const dialect of DIALECTS) {
  test.describe(`payouts on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let stripe: FakeStripe;
    test.beforeAll(async () => {
      stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 } });
    });
    test.afterAll(async () => stripe?.close());
    const server = serverForSuite(dialect, () => ({ STRIPE_API_BASE: stripe.url, APP_SECRET }), async (s) => {
      await createAccount(s.db, 'Admin', 'alice@example.org');
      const saved = await savePaymentSettings(
        s.db,
        APP_SECRET,
        {
          stripe: { enabled: true, publishableKey: 'pk_test_e2e', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
          paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' },
          coingate: { enabled: false, mode: 'sandbox' },
          mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
        },
        { set: { 'stripe.secretKey': 'sk_test_e2e', 'stripe.webhookSecret': WHSEC }, clear: [] },
        0,
      );
      if (!saved.ok) throw new Error('payment settings not saved');
    });

    test('two card gifts, paid out: the payout screen shows them with their fees, the nets adding up to the payout', async ({ page }) => {
      for (const amount of ['40', '100']) {
        await page.goto(`${server.baseURL}/faire-un-don?m=card`);
        await page.getByLabel('Autre montant (€)').fill(amount);
        await page.getByRole('button', { name: 'Donner par carte' }).click();
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL(/\/payment\/success/);
      }
      const payout = stripe.payout();
      expect(payout.amount).toBe(14000 - fakeCardFee(4000) - fakeCardFee(10000));

      await signIn(page, server.baseURL, 'alice@example.org');
      await page.getByRole('link', { name: 'Versements' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Versements' })).toBeVisible();
      await page.getByRole('button', { name: 'Relire maintenant chez les prestataires' }).click();
      await expect(page.getByRole('status')).toContainText('1 versement lu');

      const table = page.getByRole('table', { name: /Versement du .* : mouvements/ });
      await expect(table.getByRole('row')).toHaveCount(4);
      for (const cents of [4000, 10000]) {
        const row = table.getByRole('row', { name: new RegExp(euros(cents - fakeCardFee(cents)).replace(/\s/g, '\\s')) });
        await expect(row).toContainText('Awa Diallo');
        await expect(row).toContainText(euros(fakeCardFee(cents)));
      }
      await expect(page.getByText('La somme des nets est égale au montant versé.')).toBeVisible();
      await expect(page.getByRole('table', { name: 'Frais par moyen de paiement' })).toContainText(euros(fakeCardFee(4000) + fakeCardFee(10000)));
      await expectAccessible(page);

      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await expectAccessible(page);
    });
  });
}
