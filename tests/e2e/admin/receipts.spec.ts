import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { parisYear } from '~/lib/paris';
import { expectAccessible } from '../support';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { startFakePayPal, type FakePayPal } from '../../fakes/paypal';
import { PAYPAL_TEST } from '../../support/donations';
import { BOTH_DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { startSmtp } from '../../support/smtp';

const WHSEC = 'whsec_e2e_receipts';
const APP_SECRET = 'e2e-receipts-secret-'.padEnd(48, 'x');
// Receipt numbers count the French calendar year (the same helper as the app's).
const YEAR = parisYear(new Date());

/** The PDF attached to a raw MIME message (base64 part named *.pdf). */
function pdfAttachment(raw: string): { name: string; bytes: Buffer } {
  const part = raw.split(/\r?\n--/).find((p) => /content-type:\s*application\/pdf/i.test(p));
  if (!part) throw new Error('no PDF attachment');
  const name = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1] ?? '';
  const body = part.split(/\r?\n\r?\n/).slice(1).join('\n');
  return { name, bytes: Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

for (const dialect of BOTH_DIALECTS) {
  test.describe(`tax receipts on ${dialect}`, () => {
    // Each step is a whole journey (server start, checkout, mail); a busy machine needs the room.
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let stripe: FakeStripe;
    let pp: FakePayPal;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let attached: { name: string; bytes: Buffer };
    test.beforeAll(async () => {
      smtp = await startSmtp();
      pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
      stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 } });
    });
    test.afterAll(async () => {
      await stripe?.close();
      await pp?.close();
      await smtp?.close();
    });
    const server = serverForSuite(
      dialect,
      () => ({ STRIPE_API_BASE: stripe.url, PAYPAL_API_BASE: pp.url, PAYPAL_SDK_URL: `${pp.url}/sdk/js`, SMTP_URL: smtp.url, APP_SECRET, MAIL_FROM: 'Fondation THV <dons@example.org>' }),
      async (s) => {
        await createAccount(s.db, 'Admin', 'alice@example.org');
        await createAccount(s.db, 'Éditeur', 'eric@example.org');
        const saved = await savePaymentSettings(
          s.db,
          APP_SECRET,
          {
            stripe: { enabled: true, publishableKey: 'pk_test_e2e', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
            paypal: { enabled: true, clientId: PAYPAL_TEST.clientId, webhookId: PAYPAL_TEST.webhookId, mode: 'sandbox' },
            coingate: { enabled: false, mode: 'sandbox' },
            mobileMoney: { enabled: false, integrationType: 'api', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
          },
          { set: { 'stripe.secretKey': 'sk_test_e2e', 'stripe.webhookSecret': WHSEC, 'paypal.clientSecret': PAYPAL_TEST.clientSecret }, clear: [] },
          0,
        );
        if (!saved.ok) throw new Error('payment settings not saved');
      },
    );

    test('the donate form asks for nothing while receipts are off; an Éditeur may not open them', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don?m=card`);
      await expect(page.getByRole('button', { name: 'Donner par carte' })).toBeVisible();
      await expect(page.getByRole('group', { name: 'Reçu fiscal' })).toHaveCount(0);
      await signIn(page, server.baseURL, 'eric@example.org');
      expect((await page.goto(`${server.baseURL}/admin/receipts`))?.status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/receipts/parametres`))?.status()).toBe(403);
    });

    test('an Admin fills in the organisation; the screen says what is missing until it is complete', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.getByRole('link', { name: 'Reçus', exact: true }).click();
      await expect(page.getByRole('heading', { name: `Reçus fiscaux ${YEAR}` })).toBeVisible();
      await page.getByRole('link', { name: 'Paramètres des reçus' }).click();
      await expect(page.getByTestId('receipts-state')).toContainText('Émission désactivée');
      await expectAccessible(page);
      await page.getByLabel('Émettre les reçus fiscaux').check();
      await page.getByLabel('Dénomination *').fill('Fondation THV');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByTestId('receipts-state')).toContainText('champs obligatoires vides');
      await expect(page.getByTestId('receipts-state')).toContainText('Adresse, Code postal, Commune, N° SIREN ou RNA, Objet, Qualité de l’organisme, Nom du signataire, Qualité du signataire');
      await page.getByLabel('N° SIREN ou RNA *').fill('12345');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByText('Un SIREN (9 chiffres) ou un numéro RNA (W suivi de 9 chiffres).')).toBeVisible();
      await page.getByLabel('Adresse *').fill('12 rue de la Paix');
      await page.getByLabel('Code postal *').fill('75002');
      await page.getByLabel('Commune *').fill('Paris');
      await page.getByLabel('N° SIREN ou RNA *').fill('123 456 789');
      await page.getByLabel('Objet *').fill('Aide humanitaire');
      await page.getByLabel('Qualité de l’organisme *').selectOption({ label: 'Fondation reconnue d’utilité publique' });
      await page.getByLabel('Nom du signataire *').fill('Marie Curie');
      await page.getByLabel('Qualité du signataire *').fill('Présidente');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByTestId('receipts-state')).toContainText('Émission active');
      await expectAccessible(page);
    });

    test('a card gift with the address filled brings the receipt PDF by email', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don?m=card`);
      const fieldset = page.getByRole('group', { name: 'Reçu fiscal' });
      await expect(fieldset).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Autre montant (€)').fill('1234,56');
      await fieldset.getByLabel('Nom et prénom').fill('Awa Diallo');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      // The server names each missing field, in the donor's language.
      const alert = fieldset.getByRole('alert');
      await expect(alert).toContainText('Informations du reçu fiscal à corriger :');
      await expect(alert).toContainText('Adresse : champ obligatoire pour le reçu fiscal.');
      await expect(alert).toContainText('Code postal : champ obligatoire pour le reçu fiscal.');
      await expect(fieldset.getByLabel('Nom et prénom')).toHaveValue('Awa Diallo');
      await expect(fieldset.getByLabel('Adresse')).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page);
      await fieldset.getByLabel('Adresse').fill('3 rue des Lilas');
      await fieldset.getByLabel('Code postal').fill('75011');
      await fieldset.getByLabel('Commune').fill('Paris');
      // A refused amount keeps what was typed for the receipt.
      await page.getByLabel('Autre montant (€)').fill('');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('alert').first()).toContainText('Montant manquant');
      await expect(fieldset.getByLabel('Adresse')).toHaveValue('3 rue des Lilas');
      await expect(fieldset.getByLabel('Nom et prénom')).toHaveValue('Awa Diallo');
      await page.getByLabel('Autre montant (€)').fill('1234,56');
      await page.getByRole('button', { name: 'Donner par carte' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('1234.56 EUR');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_/);

      const mail = await smtp.mailTo('donor@example.org');
      expect(mail.text).toContain(`Votre reçu fiscal n° RF-${YEAR}-000001 est joint à ce message`);
      attached = pdfAttachment(mail.raw);
      expect(attached.name).toBe(`recu-fiscal-RF-${YEAR}-000001.pdf`);
      const text = await pdfText(attached.bytes);
      expect(text).toContain(`Numéro d’ordre du reçu : RF-${YEAR}-000001`);
      expect(text).toContain('Nom et prénom : Awa Diallo');
      expect(text).toContain('Adresse : 3 rue des Lilas, 75011 Paris, France');
      expect(text).toContain('mille deux cent trente-quatre euros et cinquante-six centimes');
      expect(text).toContain('CERFA n° 11580');
    });

    test('the Admin downloads the same PDF from /admin/donations and sees it in the register and its CSV', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/donations`);
      await expectAccessible(page);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: `RF-${YEAR}-000001 (télécharger le PDF)` }).click();
      const file = await (await download).path();
      expect(Buffer.compare(fs.readFileSync(file), attached.bytes)).toBe(0);

      await page.goto(`${server.baseURL}/admin/receipts`);
      await expect(page.getByTestId('receipts-total')).toHaveText(/1\s234,56\s€/);
      await expect(page.getByRole('row', { name: new RegExp(`RF-${YEAR}-000001.*Awa Diallo.*émis`) })).toBeVisible();
      await expectAccessible(page);
      const csvDownload = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Exporter en CSV' }).click();
      const csv = fs.readFileSync(await (await csvDownload).path(), 'utf8');
      expect(csv).toContain(`"RF-${YEAR}-000001";"Don"`);
      expect(csv).toContain('"Total des reçus émis";"1"');
      expect(csv).toContain('"1234.56"');
    });

    test('the Admin corrects a receipt: the old one stays, marked cancelled, the new one takes the next number', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/receipts`);
      await page.getByRole('link', { name: `RF-${YEAR}-000001`, exact: true }).click();
      await expect(page.getByRole('heading', { name: `Reçu RF-${YEAR}-000001` })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Adresse').fill('5 avenue Foch');
      await page.getByLabel('Motif', { exact: true }).fill('Adresse erronée');
      await page.getByRole('button', { name: 'Annuler et émettre le reçu corrigé' }).click();
      await expect(page.getByRole('heading', { name: `Reçu RF-${YEAR}-000002` })).toBeVisible();
      await expect(page.getByText('5 avenue Foch, 75011 Paris, France')).toBeVisible();
      await page.getByRole('link', { name: `RF-${YEAR}-000001` }).click();
      await expect(page.getByText(/Annulé le/)).toBeVisible();
      await expect(page.getByText(`Adresse erronée — remplacé par RF-${YEAR}-000002`)).toBeVisible();
      await page.goto(`${server.baseURL}/admin/receipts`);
      await expect(page.getByRole('row', { name: new RegExp(`RF-${YEAR}-000001.*annulé`) })).toBeVisible();
      await expect(page.getByTestId('receipts-total')).toHaveText(/1\s234,56\s€/);
    });

    test('a PayPal gift sends the receipt details through the buttons’ script and gets its receipt', async ({ page }) => {
      await page.goto(`${server.baseURL}/faire-un-don?m=paypal`);
      const fieldset = page.getByRole('group', { name: 'Reçu fiscal' });
      await fieldset.getByRole('radio', { name: 'Entreprise' }).check();
      await fieldset.getByLabel(/Raison sociale/).fill('ACME SAS');
      await fieldset.getByLabel(/Forme juridique/).fill('SAS');
      await fieldset.getByLabel(/N° SIREN/).fill('987654321');
      await fieldset.getByLabel('Nom et prénom').fill('Jean Martin');
      await fieldset.getByLabel('Adresse').fill('8 quai de Saône');
      await fieldset.getByLabel('Code postal').fill('69002');
      await fieldset.getByLabel('Commune').fill('Lyon');
      await page.getByLabel('Montant (€)').fill('45.00');
      await page.getByRole('button', { name: 'PayPal' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
      const gift = await server.db.selectFrom('donations').selectAll().where('provider', '=', 'paypal').executeTakeFirstOrThrow();
      expect(gift).toMatchObject({ status: 'succeeded', amount_minor: 4500 });
      const receipt = await server.db.selectFrom('receipts').selectAll().where('donation_id', '=', gift.id).executeTakeFirstOrThrow();
      expect(receipt).toMatchObject({ number: `RF-${YEAR}-000003`, method: 'PayPal', amount_cents: 4500, status: 'issued' });
      expect(JSON.parse(receipt.donor)).toMatchObject({ kind: 'company', company: 'ACME SAS', legalForm: 'SAS', siren: '987654321', city: 'Lyon' });
    });
  });
}
