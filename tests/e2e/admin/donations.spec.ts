import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { startFakeCoinGate, type FakeCoinGate } from '../../fakes/coingate';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { BOTH_DIALECTS, createAccount, serverForSuite, signIn } from './server';

const WHSEC = 'whsec_e2e_secret';
const SK = 'sk_test_e2e_secret_key';
const CG = 'coingate-e2e-token';
/** Fakes take ports from 3660 (our range is 3600–3699); one pair per dialect. */
const FAKE_PORT = Number(process.env.E2E_FAKES_PORT_BASE ?? 3660);

for (const [n, dialect] of BOTH_DIALECTS.entries()) {
  test.describe(`donations on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    let stripe: FakeStripe;
    let coingate: FakeCoinGate;
    test.beforeAll(async () => {
      stripe = await startFakeStripe({ port: FAKE_PORT + n * 4, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 } });
      coingate = await startFakeCoinGate({ port: FAKE_PORT + n * 4 + 1, authToken: CG });
    });
    test.afterAll(async () => {
      await stripe?.close();
      await coingate?.close();
    });
    const server = serverForSuite(
      dialect,
      () => ({ STRIPE_API_BASE: stripe.url, COINGATE_API_BASE: coingate.url, HTML_CACHE: 'on' }),
      async (s) => {
        await createAccount(s.db, 'Admin', 'alice@example.org');
        await createAccount(s.db, 'Éditeur', 'eric@example.org');
      },
    );

    test('with nothing configured, the donate page says online giving is coming', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don`);
      await expect(page.getByRole('heading', { name: 'Dons en ligne bientôt disponibles' })).toBeVisible();
    });

    test('an Éditeur may not open payment settings or donations', async ({ page }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      expect((await page.goto(`${server.baseURL}/admin/payments`))?.status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/donations`))?.status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/donations/export.csv`))?.status()).toBe(403);
    });

    test('an Admin configures card and crypto; secrets are write-only and encrypted', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/payments`);
      await expect(page.getByRole('heading', { name: 'Paramètres de Paiement' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sauvegarder' })).toHaveCount(2);
      const stripeSection = page.getByRole('region', { name: 'Stripe (carte bancaire)' });
      await expect(stripeSection.getByLabel('Clé publiable')).toBeDisabled();
      await expect(stripeSection.getByRole('button', { name: 'Ajouter un produit' })).toBeDisabled();
      await expectAccessible(page);

      await stripeSection.getByRole('switch', { name: 'Désactivé' }).check({ force: true });
      await expect(stripeSection.getByLabel('Clé publiable')).toBeEnabled();
      await stripeSection.getByLabel('Clé publiable').fill('pk_test_e2e');
      await stripeSection.getByLabel('Clé secrète').fill(SK);
      await stripeSection.getByLabel('Secret de signature du webhook').fill(WHSEC);
      await stripeSection.getByRole('button', { name: 'Ajouter un produit' }).click();
      await expect(stripeSection.getByRole('switch', { name: 'Actif' })).toBeChecked();
      await expect(stripeSection.getByLabel('Nom')).toHaveValue('');
      await stripeSection.getByLabel('Nom').fill('Un repas');
      await stripeSection.getByLabel('Montant (€)').fill('20');
      await stripeSection.getByLabel('ID du prix').fill('price_20');
      const cg = page.getByRole('region', { name: 'CoinGate (crypto-monnaie)' });
      await cg.getByRole('switch').check({ force: true });
      await cg.getByLabel('Jeton d’authentification (auth token)').fill(CG);
      await page.getByRole('button', { name: 'Sauvegarder' }).last().click();
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Paramètres de paiement sauvegardés !');
      await expect(toast).toContainText('Vos modifications ont été enregistrées avec succès.');
      await expect(toast).toHaveClass(/toast-success/);

      await page.reload();
      const html = await page.content();
      expect(html).not.toContain(SK);
      expect(html).not.toContain(WHSEC);
      expect(html).not.toContain(CG);
      await expect(page.getByRole('region', { name: 'Stripe (carte bancaire)' }).getByText(/Défini \(masqué\)/).first()).toBeVisible();
      const stored = await server.db.selectFrom('settings').select('value').where('key', '=', 'payments').executeTakeFirstOrThrow();
      expect(stored.value).not.toContain(SK);
      expect(stored.value).toContain('pk_test_e2e');
    });

    test('a donor gives 20 € by card and 15,50 € in crypto, confirmed by the providers', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don`);
      const tabs = page.getByRole('navigation', { name: 'Moyens de paiement' });
      await expect(tabs.getByRole('link', { name: 'Carte bancaire' })).toHaveAttribute('aria-current', 'page');
      await expect(tabs.getByRole('link')).toHaveCount(2);
      await expectAccessible(page);
      // No amount: the tab's message, from the server.
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('alert')).toContainText('Montant manquant - Veuillez sélectionner ou saisir un montant.');
      await page.getByLabel(/Un repas/).check();
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('20.00 EUR');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_/);
      await expect(page.getByTestId('confirmed-amount')).toHaveText(/Montant confirmé : 20,00\s€/);
      // Make it monthly (issue 41): the same amount or a quarter of it, in one step to Checkout.
      const offer = page.getByRole('region', { name: 'Et si vous donniez chaque mois ?' });
      await expect(offer.getByRole('radio', { name: /20,00\s€ par mois, le même montant/ })).toBeChecked();
      await expectAccessible(page);
      await offer.getByRole('radio', { name: /^5,00\s€ par mois$/ }).check();
      await offer.getByRole('button', { name: 'Donner chaque mois' }).click();
      await expect(page.getByText('(subscription)')).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('5.00 EUR');
      // The donor thinks twice: nothing is given, the attempt is cancelled.
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expect(page.getByRole('heading', { name: 'Paiement annulé' })).toBeVisible();
      expect(await server.db.selectFrom('donations').select(['status', 'frequency']).where('amount_minor', '=', 500).execute()).toEqual([{ status: 'cancelled', frequency: 'monthly' }]);

      await page.goto(`${server.baseURL}/faire-un-don?m=crypto`);
      await expect(page.getByLabel('Montant (€)')).toHaveValue('20.00');
      for (const bad of ['20.123', '-5', '0', '100000.01', 'abc', '9'.repeat(300)]) {
        await page.getByLabel('Montant (€)').fill(bad);
        await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
        await expect(page.getByRole('alert')).toContainText('Montant invalide');
      }
      await page.getByLabel('Montant (€)').fill('15.50');
      await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
      await expect(page.getByRole('heading', { name: 'Fake CoinGate invoice' })).toBeVisible();
      await page.getByRole('button', { name: 'Pay with crypto' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
      await expect(page.getByTestId('confirmed-amount')).toHaveText(/15,50\s€/);
    });

    test('a donor who cancels leaves a cancelled attempt, not a donation', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don?m=card`);
      await page.getByLabel('Autre montant (€)').fill('7');
      await page.getByRole('radio', { name: 'Don mensuel' }).check();
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByText('(subscription)')).toBeVisible();
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expect(page.getByRole('heading', { name: 'Paiement annulé' })).toBeVisible();
      const row = await server.db.selectFrom('donations').selectAll().where('amount_minor', '=', 700).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'cancelled', frequency: 'monthly' });
    });

    test('a provider that is down gives the donor a payment error and leaves a failed row', async ({ page }) => {
      stripe.failNext = 10;
      await page.goto(`${server.baseURL}/faire-un-don?m=card`);
      await page.getByLabel('Autre montant (€)').fill('33');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('alert')).toContainText('Erreur de paiement - Le service de paiement ne répond pas.');
      stripe.failNext = 0;
      const row = await server.db.selectFrom('donations').selectAll().where('amount_minor', '=', 3300).executeTakeFirstOrThrow();
      expect(row.status).toBe('failed');
    });

    test('webhooks: a replayed Stripe event counts once, a tampered one is refused', async ({ request }) => {
      const session = [...stripe.sessions.values()].find((s) => s.status === 'complete')!;
      const payload = JSON.stringify({ id: 'evt_replay', object: 'event', type: 'checkout.session.completed', data: { object: session } });
      const header = stripe.sign(payload);
      for (let i = 0; i < 10; i++) expect((await request.post(`${server.baseURL}/webhooks/stripe`, { data: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } })).status()).toBe(200);
      const tampered = payload.replace('"amount_total":2000', '"amount_total":2');
      expect((await request.post(`${server.baseURL}/webhooks/stripe`, { data: tampered, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header } })).status()).toBe(400);
      expect((await request.post(`${server.baseURL}/webhooks/stripe`, { data: payload, headers: { 'Content-Type': 'application/json' } })).status()).toBe(400);
      const rows = await server.db.selectFrom('donations').selectAll().where('provider_ref', '=', session.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('succeeded');
      const mails = await server.db.selectFrom('mail_outbox').selectAll().where('to', '=', 'donor@example.org').execute();
      expect(mails.filter((m) => m.subject === 'Reçu de votre don à la Fondation THV')).toHaveLength(1);
    });

    test('the Admin sees the donations, their totals, the CSV and the dashboard figure', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await expect(page.getByText('Dons ce mois-ci').locator('..')).toContainText(/35,50\s€/);
      await page.goto(`${server.baseURL}/admin/donations`);
      await expect(page.getByTestId('total-succeeded')).toHaveText(/35,50\s€/);
      await expectAccessible(page);
      await page.getByLabel('Statut').selectOption('succeeded');
      await page.getByLabel('Moyen').selectOption('coingate');
      await page.getByRole('button', { name: 'Filtrer' }).click();
      await expect(page).toHaveURL(/status=succeeded/);
      await expect(page.getByRole('row')).toHaveCount(2);
      await expect(page.getByTestId('total-succeeded')).toHaveText(/15,50\s€/);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Exporter en CSV' }).click();
      const file = await (await download).createReadStream();
      let csv = '';
      for await (const c of file) csv += c;
      expect(csv).toContain('"Crypto (CoinGate)"');
      expect(csv).toContain('"15.50"');
      expect(csv).not.toContain('"Carte (Stripe)"');
    });

    test('the thank-you page promises an email only to a gift that has an address (#19)', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don?m=crypto`);
      const email = page.getByLabel('Email (facultatif)', { exact: true });
      await expect(email).toHaveAccessibleDescription(/notre prestataire crypto ne nous transmet pas votre adresse/);
      await page.getByLabel('Montant (€)').fill('12');
      await email.fill('pas-une-adresse');
      await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
      await expect(page.getByRole('alert')).toHaveText('Email invalide - Vérifiez l’adresse saisie, ou laissez le champ vide.');
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveValue('pas-une-adresse');
      await expectAccessible(page);
      await email.fill('Crypto.Donor@example.org');
      await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
      await page.getByRole('button', { name: 'Pay with crypto' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
      await expect(page.getByTestId('thank-you-text')).toHaveText('Votre don a bien été traité. Un reçu vous sera envoyé par email.');
      const mail = await server.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'crypto.donor@example.org').execute();
      expect(mail).toEqual([{ subject: 'Reçu de votre don à la Fondation THV' }]);

      // No address: no promise.
      await page.goto(`${server.baseURL}/faire-un-don?m=crypto`);
      await page.getByLabel('Montant (€)').fill('8');
      await page.getByRole('button', { name: 'Donner en crypto-monnaie' }).click();
      await page.getByRole('button', { name: 'Pay with crypto' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
      await expect(page.getByTestId('confirmed-amount')).toHaveText(/8,00\s€/);
      await expect(page.getByTestId('thank-you-text')).toHaveText('Votre don a bien été traité.');
    });
  });
}
