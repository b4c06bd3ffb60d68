import { expect, test, type Page } from '@playwright/test';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { startFakeCoinGate, type FakeCoinGate } from '../../fakes/coingate';
import { startFakeFlutterwave, type FakeFlutterwave } from '../../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { campaignInput } from '../../support/campaigns';
import { FLUTTERWAVE_TEST, PAYPAL_TEST } from '../../support/donations';
import { expectAccessible, PUBLIC_JS_BUDGET, visitMeasured } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

const APP_SECRET = 'campaigns-e2e-secret-'.padEnd(48, 'e');
const WHSEC = 'whsec_campaigns_e2e';
const CG = 'cg-campaigns-e2e';
const ADMIN = 'alice@example.org';
const EDITOR = 'eric@example.org';
const toast = (page: Page) => page.locator('[data-toast-region] li');
/** The server may be writing at the same moment (SQLite allows one writer): a busy database is retried. */
async function whenFree<T>(write: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await write();
    } catch (e) {
      if (i >= 20 || !/database is locked|SQLITE_BUSY/.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`campaigns on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let stripe: FakeStripe;
    let coingate: FakeCoinGate;
    let paypal: FakePayPal;
    let flutterwave: FakeFlutterwave;
    test.beforeAll(async () => {
      stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 } });
      coingate = await startFakeCoinGate({ port: 0, authToken: CG });
      paypal = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
      flutterwave = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    });
    test.afterAll(async () => {
      await Promise.all([stripe?.close(), coingate?.close(), paypal?.close(), flutterwave?.close()]);
    });
    const server = serverForSuite(
      dialect,
      () => ({
        STRIPE_API_BASE: stripe.url,
        COINGATE_API_BASE: coingate.url,
        PAYPAL_API_BASE: paypal.url,
        PAYPAL_SDK_URL: `${paypal.url}/sdk/js`,
        FLUTTERWAVE_API_BASE: flutterwave.url,
        FLUTTERWAVE_SCRIPT_URL: `${flutterwave.url}/v3.js`,
        HTML_CACHE: 'on',
        APP_SECRET,
      }),
      async (s) => {
        await createAccount(s.db, 'Admin', ADMIN);
        await createAccount(s.db, 'Éditeur', EDITOR);
        const saved = await whenFree(() => savePaymentSettings(
          s.db,
          APP_SECRET,
          {
            stripe: { enabled: true, publishableKey: 'pk_test_e2e', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
            paypal: { enabled: true, clientId: PAYPAL_TEST.clientId, webhookId: PAYPAL_TEST.webhookId, mode: 'sandbox' },
            coingate: { enabled: true, mode: 'sandbox' },
            mobileMoney: { enabled: true, integrationType: 'api', provider: 'flutterwave', publicKey: FLUTTERWAVE_TEST.publicKey, currency: 'XOF', paymentUrl: '' },
            giving: { feePercent: '3', stripeMethodTypes: [] },
          },
          {
            set: {
              'stripe.secretKey': 'sk_test_campaigns',
              'stripe.webhookSecret': WHSEC,
              'coingate.authToken': CG,
              'paypal.clientSecret': PAYPAL_TEST.clientSecret,
              'mobileMoney.secretKey': FLUTTERWAVE_TEST.secretKey,
              'mobileMoney.secretHash': FLUTTERWAVE_TEST.hash,
            },
            clear: [],
          },
          0,
        ));
        if (!saved.ok) throw new Error('payment settings not saved');
        // A campaign that ended last year: its page stays, gifts to it are refused.
        await whenFree(() =>
          saveCampaign(s.db, { id: null, name: 'Test' }, null, campaignInput('hiver-2025', { fr: 'Couvertures d’hiver', en: 'Winter blankets', es: 'Mantas de invierno' }, { goalCents: 500_000, startsOn: '2025-01-01', endsOn: '2025-12-31' })),
        );
      },
    );

    test('an Éditeur creates a campaign with a goal, suggested amounts and a linked project', async ({ page }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.getByRole('navigation').getByRole('link', { name: 'Campagnes' }).first().click();
      await expect(page.getByRole('heading', { name: 'Campagnes', level: 1 })).toBeVisible();
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Ajouter une campagne' }).click();
      await page.getByRole('button', { name: 'Ajouter la campagne' }).click();
      await expect(page.getByLabel('Titre * (FR)')).toHaveAccessibleDescription('Le titre est obligatoire en français.');
      await expectAccessible(page);
      await page.getByLabel('Objectif (€)').fill('1000');
      await page.getByLabel('Statut').selectOption('Active');
      await page.getByLabel('Projet lié').selectOption({ index: 1 });
      await page.getByLabel('Montant 1', { exact: true }).fill('25');
      await page.getByLabel('Titre * (FR)').fill('Un puits à Kaya');
      await page.getByLabel('Description courte (FR)').fill('De l’eau potable pour 2 000 habitants.');
      await page.getByLabel('Impact du montant 1 (FR)').fill('un kit scolaire');
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill('A well in Kaya');
      await page.getByLabel('Impact du montant 1 (EN)').fill('a school kit');
      await tab(page, 'ES').click();
      await page.getByLabel('Titre * (ES)').fill('Un pozo en Kaya');
      await page.getByRole('button', { name: 'Ajouter la campagne' }).click();
      await expect(toast(page)).toContainText('Campagne ajoutée !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/campaigns`);
      const row = page.getByTestId('campaign-row').filter({ hasText: 'Un puits à Kaya' });
      await expect(row).toContainText('/campagnes/un-puits-a-kaya');
      await expect(row).toContainText('Active');
      await expect(row).toContainText('1 000,00');
      const sitemap = await (await page.request.get(`${server.baseURL}/sitemap.xml`)).text();
      for (const path of ['/campagnes', '/campagnes/un-puits-a-kaya', '/campagnes/hiver-2025']) expect(sitemap).toContain(`/en${path}</loc>`);
    });

    test('a visitor gives to it by card with the fee option and a dedication; the campaign page shows the new total at the next request', async ({ page }) => {
      // The home page shows the open campaign (linked to a project) and stays accessible.
      await page.goto(`${server.baseURL}/`);
      await expect(page.getByRole('heading', { name: 'Nos campagnes en cours' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Un puits à Kaya' })).toBeVisible();
      await expectAccessible(page);
      await page.goto(`${server.baseURL}/campagnes`);
      await expect(page.getByRole('heading', { name: 'Un puits à Kaya' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Couvertures d’hiver' })).toHaveCount(0);
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Découvrir la campagne : Un puits à Kaya' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Un puits à Kaya' })).toBeVisible();
      const bar = page.getByRole('progressbar', { name: 'Progression de la collecte' });
      await expect(bar).toHaveAttribute('value', '0');
      await expect(page.getByTestId('campaign-raised')).toHaveText(/0,00\s€ collectés/);
      await expect(page.getByText('0 % de l’objectif atteint')).toBeVisible();
      await expectAccessible(page);
      // Served from the cache from now on.
      const again = await page.request.get(`${server.baseURL}/campagnes/un-puits-a-kaya`);
      expect(again.headers()['x-cache']).toBe('HIT');
      // Server-rendered without the React runtime (ADR 003): only our own small script files.
      const html = await again.text();
      expect(html).not.toContain('__reactRouterContext');
      for (const tag of (html.match(/<script\b[^>]*>/g) ?? []).filter((t) => !t.includes('application/ld+json'))) expect(tag).toMatch(/\ssrc="\/assets\//);

      await page.getByRole('link', { name: 'Donner à cette campagne' }).click();
      await expect(page).toHaveURL(/\/faire-un-don\?campagne=un-puits-a-kaya/);
      await expect(page.getByTestId('designation')).toHaveText('Votre don est affecté à la campagne « Un puits à Kaya ».');
      await expect(page.getByLabel('Affectation du don')).toHaveValue('un-puits-a-kaya');
      // The campaign's suggested amount replaces the presets, chosen already; the added fees are shown before paying.
      await expect(page.getByRole('radio', { name: /un kit scolaire — 25,00\s€/ })).toBeChecked();
      await expect(page.getByRole('radio', { name: /Un repas/ })).toHaveCount(0);
      const fees = page.getByRole('checkbox', { name: 'J’ajoute 3 % pour couvrir les frais de paiement' });
      await expect(fees).toHaveAccessibleDescription(/^Soit 0,75\s€ pour un don de 25,00\s€ \(25,75\s€ au total\)\.$/);
      await expectAccessible(page);
      await fees.check();
      await page.getByRole('radio', { name: 'En mémoire de' }).check();
      await page.getByLabel('Nom de la personne').fill('Mariama Diallo');
      await page.getByLabel('Message (facultatif)').fill('Elle aimait ce village.');
      await page.getByLabel('Prévenir cette personne par email (facultatif)').fill('famille@example.org');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('25.75 EUR');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_/);

      await page.goto(`${server.baseURL}/campagnes/un-puits-a-kaya`);
      await expect(page.getByTestId('campaign-raised')).toHaveText(/25,00\s€ collectés/);
      await expect(page.getByRole('progressbar', { name: 'Progression de la collecte' })).toHaveAttribute('value', '2');
      await expect(page.getByText('2 % de l’objectif atteint')).toBeVisible();
      await expect(page.getByText(/^1 donateur/)).toBeVisible();
      // The project it is linked to shows it too.
      await page.goto(`${server.baseURL}/nos-actions`);
      await expect(page.getByTestId('project-campaign')).toContainText('Un puits à Kaya');
    });

    test('an ended campaign refuses designated gifts with a message in the donor’s language', async ({ page }) => {
      await page.goto(`${server.baseURL}/en/campagnes/hiver-2025`);
      await expect(page.getByText('This campaign has ended. Thank you to everyone who supported it!')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Give to this campaign' })).toHaveCount(0);
      await page.goto(`${server.baseURL}/en/faire-un-don?campagne=hiver-2025`);
      await expect(page.getByRole('status')).toHaveText('The “Winter blankets” campaign has ended and no longer accepts gifts. You can make a general gift or choose another campaign.');
      await expect(page.getByTestId('designation')).toHaveCount(0);
      // A form posted for it anyway (an old page, a crafted request) is refused by the server.
      await page.locator('form[data-card-form]').evaluate((form: HTMLFormElement) => {
        form.querySelectorAll('[name="campaign"]').forEach((e) => e.remove());
        form.insertAdjacentHTML('beforeend', '<input type="hidden" name="campaign" value="hiver-2025">');
      });
      await page.getByLabel('Other amount (€)').fill('10');
      await page.getByRole('button', { name: 'Donate by card' }).click();
      await expect(page.getByRole('alert')).toHaveText('The “Winter blankets” campaign has ended and no longer accepts gifts. You can make a general gift or choose another campaign.');
      expect(await server.db.selectFrom('donations').select('id').where('amount_minor', '=', 1000).execute()).toHaveLength(0);
    });

    test('the fee line shows what will be charged as the donor picks or types an amount, by card and in crypto, and is true without JavaScript', async ({ page, browser }) => {
      // A general gift: the fee script comes with the card tab, within the public pages' budget.
      const { scriptBytes, foreign } = await visitMeasured(page, `${server.baseURL}/faire-un-don`, server.baseURL);
      expect(foreign).toEqual([]);
      expect(scriptBytes).toBeLessThan(PUBLIC_JS_BUDGET);
      await expect(page.locator('script[src^="/assets/fees-"]')).toHaveCount(1);
      const fees = page.getByRole('checkbox', { name: 'J’ajoute 3 % pour couvrir les frais de paiement' });
      await expect(fees).toHaveAccessibleDescription('Soit 3 % du montant de votre don.');
      await page.getByRole('radio', { name: /Un repas — 20,00\s€/ }).check();
      await fees.check();
      await expect(fees).toHaveAccessibleDescription(/^Soit 0,60\s€ pour un don de 20,00\s€ \(20,60\s€ au total\)\.$/);
      // An amount typed wins over the preset, as on the server; 3 % of 35,50 € is 1,065 €, charged as 1,07 €.
      const other = page.getByLabel('Autre montant (€)');
      await other.fill('35,50');
      await expect(fees).toHaveAccessibleDescription(/^Soit 1,07\s€ pour un don de 35,50\s€ \(36,57\s€ au total\)\.$/);
      await other.fill('12,345');
      await expect(fees).toHaveAccessibleDescription('Soit 3 % du montant de votre don.');
      await other.fill('');
      await expect(fees).toHaveAccessibleDescription(/^Soit 0,60\s€ pour un don de 20,00\s€/);
      await other.fill('35,50');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('36.57 EUR');

      // Crypto: the line follows the amount typed, and CoinGate is asked for that total.
      await page.goto(`${server.baseURL}/faire-un-don?m=crypto`);
      const cryptoFees = page.getByRole('checkbox', { name: 'J’ajoute 3 % pour couvrir les frais de paiement' });
      await expect(cryptoFees).toHaveAccessibleDescription(/^Soit 0,60\s€ pour un don de 20,00\s€ \(20,60\s€ au total\)\.$/);
      await page.getByLabel('Montant (€)').fill('50');
      await expect(cryptoFees).toHaveAccessibleDescription(/^Soit 1,50\s€ pour un don de 50,00\s€ \(51,50\s€ au total\)\.$/);
      await cryptoFees.check();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
      await expect(page.getByText('Amount: 51.50 EUR')).toBeVisible();

      // Without JavaScript the line names the amount it is about, or only the percentage.
      const noScript = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-FR' });
      try {
        const bare = await noScript.newPage();
        await bare.goto(`${server.baseURL}/faire-un-don?campagne=un-puits-a-kaya`);
        await expect(bare.locator('#card-fee-amount')).toHaveText(/^Soit 0,75\s€ pour un don de 25,00\s€ \(25,75\s€ au total\)\.$/);
        await bare.goto(`${server.baseURL}/faire-un-don`);
        await expect(bare.locator('#card-fee-amount')).toHaveText('Soit 3 % du montant de votre don.');
      } finally {
        await noScript.close();
      }
    });

    test('the Admin filters donations by campaign and exports them with fees covered and the dedication', async ({ page }) => {
      await signIn(page, server.baseURL, ADMIN);
      await expect(page.getByTestId('dashboard-campaign').filter({ hasText: 'Un puits à Kaya' })).toContainText('2 % de l’objectif');
      await page.goto(`${server.baseURL}/admin/donations?period=all`);
      await page.getByLabel('Campagne').selectOption({ label: 'Un puits à Kaya' });
      await page.getByRole('button', { name: 'Filtrer' }).click();
      await expect(page).toHaveURL(/campaign=/);
      const rows = page.locator('tbody tr');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('25,75');
      await expect(rows.first()).toContainText('dont frais couverts : 0,75');
      await expectAccessible(page);
      const csvUrl = await page.getByRole('link', { name: 'Exporter en CSV' }).getAttribute('href');
      const csv = await (await page.request.get(`${server.baseURL}${csvUrl}`)).text();
      const lines = csv.trim().split('\r\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain('"Campagne";"Frais couverts EUR";"Dédicace"');
      expect(lines[1]).toContain('"Un puits à Kaya";"0.75";"En mémoire de Mariama Diallo";"Elle aimait ce village.";"famille@example.org"');
    });

    test('PayPal and mobile money offer the campaign choice; one that closed since the page opened is refused in the donor’s language, who chooses again', async ({ page }) => {
      const saved = await whenFree(() =>
        saveCampaign(server.db, { id: null, name: 'Test' }, null, campaignInput('derniere-chance', { fr: 'Dernière chance', en: 'Last chance', es: 'Última oportunidad' })),
      );
      if (!('campaign' in saved)) throw new Error('campaign not saved');
      const setStatus = (status: 'active' | 'ended') => whenFree(() => server.db.updateTable('campaigns').set({ status }).where('slug', '=', 'derniere-chance').execute());
      const closed = 'La campaña «Última oportunidad» ha terminado y ya no recibe donativos. Puede hacer un donativo general o elegir otra campaña.';
      const toasts = page.locator('[data-toast-region]');

      await page.goto(`${server.baseURL}/es/faire-un-don?m=paypal`);
      const choice = page.getByLabel('Destino del donativo');
      await expect(choice).toHaveValue('');
      await choice.selectOption({ label: 'Última oportunidad' });
      await expect(page.getByRole('button', { name: 'PayPal' })).toBeEnabled();
      await expectAccessible(page);
      await setStatus('ended');
      await page.getByRole('button', { name: 'PayPal' }).click();
      await expect(toasts).toContainText(closed);
      // Told why, the donor stays on the form (no PayPal error, no cancel page) and picks another campaign.
      await page.waitForTimeout(3000);
      await expect(page).toHaveURL(/\/faire-un-don\?m=paypal/);
      await expect(toasts).not.toContainText('Error de PayPal');
      await choice.selectOption({ label: 'Un pozo en Kaya' });
      await page.getByRole('button', { name: 'PayPal' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
      const kaya = await server.db.selectFrom('campaigns').select('id').where('slug', '=', 'un-puits-a-kaya').executeTakeFirstOrThrow();
      const paypalGifts = await server.db.selectFrom('donations').select(['campaign_id', 'status']).where('provider', '=', 'paypal').execute();
      expect(paypalGifts).toEqual([{ campaign_id: kaya.id, status: 'succeeded' }]);

      await setStatus('active');
      await page.goto(`${server.baseURL}/es/faire-un-don?m=mobileMoney`);
      await page.getByLabel('Destino del donativo').selectOption({ label: 'Última oportunidad' });
      await page.getByLabel('Nombre completo').fill('Awa Ndiaye');
      await page.getByLabel('Correo electrónico', { exact: true }).fill('awa@example.org');
      await page.getByLabel('Teléfono').fill('+221770000000');
      await expectAccessible(page);
      await setStatus('ended');
      await page.getByRole('button', { name: 'Donar con dinero móvil' }).click();
      await expect(toasts).toContainText(closed);
      expect(await server.db.selectFrom('donations').select('id').where('provider', '=', 'flutterwave').execute()).toEqual([]);
    });
  });
}
