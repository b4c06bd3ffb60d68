import { expect, test, type Page } from '@playwright/test';
import { createType } from '~/domain/membership/types.server';
import { startFakeFlutterwave, type FakeFlutterwave } from '../../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../../fakes/paypal';
import { enablePayPalAndFlutterwave, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../../support/donations';
import { membershipType } from '../../support/membership';
import { startSmtp } from '../../support/smtp';
import { DIALECTS, serverForSuite } from './server';

const APP_SECRET = 'membership-join-hosted-e2e-'.padEnd(48, 'h');

/**
 * Joining with PayPal or mobile money (issue 32), without JavaScript: the plain form leads to the
 * provider's own page (the local fakes speak PayPal's redirect flow and Flutterwave's hosted
 * checkout), and the member comes back to a page that says the membership is active only once the
 * provider has confirmed the dues; on both databases. (axe needs a script: the same pages are
 * checked with JavaScript on in membership-join.spec.ts and public-pages.spec.ts.)
 */
for (const dialect of DIALECTS) {
  test.describe(`joining with PayPal and mobile money on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    test.use({ javaScriptEnabled: false });
    let pp: FakePayPal;
    let flw: FakeFlutterwave;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    test.beforeAll(async () => {
      smtp = await startSmtp();
      pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
      flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    });
    test.afterAll(async () => {
      await pp?.close();
      await flw?.close();
      await smtp?.close();
    });
    const server = serverForSuite(
      dialect,
      () => ({ APP_SECRET, PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }),
      async (s) => {
        await enablePayPalAndFlutterwave(s.db, APP_SECRET);
        await createType(s.db, { id: null, name: 'Seed' }, membershipType());
      },
    );

    async function fillJoinForm(page: Page, email: string, method: RegExp) {
      await page.getByLabel('Prénom', { exact: true }).fill('Fatou');
      await page.getByLabel('Nom', { exact: true }).fill('Sow');
      await page.getByLabel('Adresse email', { exact: true }).fill(email);
      await page.getByLabel('Téléphone (facultatif)', { exact: true }).fill('+221 77 123 45 67');
      await page.getByLabel('Adresse postale', { exact: true }).fill('5 avenue Cheikh Anta Diop');
      await page.getByLabel('Code postal', { exact: true }).fill('10700');
      await page.getByLabel('Ville', { exact: true }).fill('Dakar');
      await page.getByLabel('Pays', { exact: true }).fill('Sénégal');
      await page.getByRole('radio', { name: /Membre actif/ }).check();
      await page.getByRole('radio', { name: method }).check();
      await page.getByLabel('J’ai lu les statuts de la fondation et j’y adhère.').check();
      await page.getByLabel(/J’accepte que mes données soient traitées/).check();
    }

    test('PayPal: the member approves on PayPal’s page and comes back to an active membership, mailed with the card', async ({ page }) => {
      await page.goto(`${server.baseURL}/devenir-membre`);
      await expect(page.getByRole('radio', { name: 'PayPal' })).toBeVisible();
      await expect(page.getByRole('radio', { name: 'Mobile money' })).toBeVisible();
      await fillJoinForm(page, 'fatou.paypal@example.org', /^PayPal$/);
      await page.getByRole('button', { name: 'Adhérer' }).click();
      await expect(page.getByRole('heading', { name: 'Fake PayPal' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('30.00 EUR');
      await expect(page.locator('#locale')).toHaveText('fr-FR');
      await page.getByRole('button', { name: 'Pay with PayPal' }).click();
      await expect(page).toHaveURL(/\/devenir-membre\/merci\?d=[0-9a-f-]{36}&token=\w+&PayerID=PAYER1$/);
      await expect(page.getByRole('heading', { name: 'Merci pour votre adhésion' })).toBeVisible();
      await expect(page.getByTestId('membership-outcome')).toContainText(/Votre adhésion n° \d+ est active jusqu’au/);
      const mail = await smtp.mailTo('fatou.paypal@example.org');
      expect(mail.text.replace(/\s+/g, ' ')).toContain('Votre carte de membre est jointe à ce message');
    });

    test('mobile money: the member pays on Flutterwave’s page in CFA francs; one who closes it there is told the membership waits for a confirmation', async ({ page }) => {
      await page.goto(`${server.baseURL}/devenir-membre`);
      await fillJoinForm(page, 'fatou.momo@example.org', /^Mobile money$/);
      await page.getByRole('button', { name: 'Adhérer' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Flutterwave checkout' })).toBeVisible();
      await expect(page.locator('#flw-amount')).toHaveText('Pay 19679 XOF (mobilemoney,ussd)');
      await page.getByRole('button', { name: 'Pay with mobile money' }).click();
      await expect(page).toHaveURL(/\/devenir-membre\/merci\?d=[0-9a-f-]{36}&status=successful&tx_ref=thv-\w+&transaction_id=\d+$/);
      await expect(page.getByTestId('membership-outcome')).toContainText(/Votre adhésion n° \d+ est active jusqu’au/);
      const m = await server.db.selectFrom('memberships').select('ends_on').where('email', '=', 'fatou.momo@example.org').executeTakeFirstOrThrow();
      expect(m.ends_on).not.toBeNull();

      await page.goto(`${server.baseURL}/devenir-membre`);
      await fillJoinForm(page, 'fatou.closed@example.org', /^Mobile money$/);
      await page.getByRole('button', { name: 'Adhérer' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/devenir-membre\/annule\?d=[0-9a-f-]{36}$/);
      // Flutterwave alone settles its payments (a closed checkout may still be paid by USSD): the page says it waits.
      await expect(page.getByTestId('membership-outcome')).toHaveText('Ce paiement n’est pas confirmé : votre adhésion est en attente. S’il aboutit, elle deviendra active et vous recevrez un email.');
      const closed = await server.db.selectFrom('memberships').select('ends_on').where('email', '=', 'fatou.closed@example.org').executeTakeFirstOrThrow();
      expect(closed.ends_on).toBeNull();
    });
  });
}
