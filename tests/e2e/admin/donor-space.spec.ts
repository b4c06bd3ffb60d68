import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { enablePayPalAndFlutterwave, enableStripeCard, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../../support/donations';
import { startFakeFlutterwave, type FakeFlutterwave } from '../../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { createAccount, serverForSuite, signIn } from './server';
import { startSmtp } from '../../support/smtp';

const APP_SECRET = 'donor-space-e2e-secret-'.padEnd(48, 'd');
const WHSEC = 'whsec_donor_space_e2e';
/** The fake Checkout's donor (tests/fakes/stripe.ts). */
const DONOR = 'donor@example.org';

/** The strings a donor reads, per language (the product's own, from app/locales). */
const UI = {
  fr: {
    prefix: '',
    donate: { amount: 'Autre montant (€)', monthly: 'Don mensuel', pay: 'Donner par carte', consent: 'Recevoir des nouvelles de la fondation' },
    title: 'Mon espace donateur',
    email: 'Adresse email',
    send: 'Recevoir mon lien de connexion',
    sent: /un lien de connexion vient de lui être envoyé/,
    confirmTitle: 'Connexion à votre espace donateur',
    open: 'Ouvrir mon espace',
    perMonth: (a: string) => `${a} par mois`,
    amount25: '25,00 €',
    amount15: '15,00 €',
    newAmount: 'Nouveau montant mensuel (€)',
    change: 'Modifier le montant',
    changed: 'C’est fait : 15,00 € par mois',
    json: 'Télécharger mes données (JSON)',
    csv: 'Télécharger mes données (CSV)',
    stop: 'Arrêter ce don mensuel',
    stopped: /Votre don mensuel est arrêté/,
    ended: 'Arrêté',
    linkInvalid: /Ce lien n’est plus valable/,
    notFound: 'Ce don mensuel est introuvable dans votre espace.',
    signOut: 'Se déconnecter',
    signedOut: 'Vous êtes déconnecté.',
    mailChanged: /Votre don mensuel passe à 15,00 € par mois à partir du prochain prélèvement/,
  },
  en: {
    prefix: '/en',
    donate: { amount: 'Other amount (€)', monthly: 'Monthly donation', pay: 'Donate by card', consent: 'Receive news from the foundation' },
    title: 'My donor space',
    email: 'Email address',
    send: 'Send me a sign-in link',
    sent: /a sign-in link has just been sent to it/,
    confirmTitle: 'Sign in to your donor space',
    open: 'Open my space',
    perMonth: (a: string) => `${a} a month`,
    amount25: '€25.00',
    amount15: '€15.00',
    newAmount: 'New monthly amount (€)',
    change: 'Change the amount',
    changed: 'Done: €15.00 a month',
    json: 'Download my data (JSON)',
    csv: 'Download my data (CSV)',
    stop: 'Stop this monthly gift',
    stopped: /Your monthly gift is stopped/,
    ended: 'Stopped',
    linkInvalid: /This link is no longer valid/,
    notFound: 'This monthly gift is not in your space.',
    signOut: 'Sign out',
    signedOut: 'You are signed out.',
    mailChanged: /Your monthly gift becomes €15\.00 a month from the next payment/,
  },
} as const;

async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return fs.readFileSync((await file.path())!, 'utf8');
}

for (const lang of ['fr', 'en'] as const) {
  const ui = UI[lang];
  test.describe(`donor space in ${lang}`, () => {
    // A busy machine (shared cores) can take a while to start the server.
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    test.use({ locale: lang === 'fr' ? 'fr-FR' : 'en-GB' });
    let stripe: FakeStripe;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    test.beforeAll(async () => {
      smtp = await startSmtp();
      stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 }, deliverEvents: true });
    });
    test.afterAll(async () => {
      await stripe?.close();
      await smtp?.close();
    });
    const server = serverForSuite(
      'sqlite',
      () => ({ STRIPE_API_BASE: stripe.url, APP_SECRET, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <dons@example.org>' }),
      async (s) => {
        await createAccount(s.db, 'Admin', 'alice@example.org');
        await enableStripeCard(s.db, APP_SECRET, { secretKey: 'sk_test_ds', webhookSecret: WHSEC });
      },
    );

    /** The next mail to the donor whose text matches (receipts and confirmations arrive too). */
    async function mailMatching(re: RegExp): Promise<string> {
      for (;;) {
        // Spaces as a reader sees them (French amounts use narrow no-break spaces).
        const text = (await smtp.mailTo(DONOR)).text.replace(/\s/g, ' ');
        if (re.test(text)) return text;
      }
    }

    test('a monthly donor signs in by the emailed link, lowers the amount, downloads their data and stops the gift', async ({ page }) => {
      // A monthly gift of 25 €, with the newsletter ticked, through the (fake) Stripe Checkout.
      await page.goto(`${server.baseURL}${ui.prefix}/faire-un-don`);
      await expect(page.getByLabel(ui.donate.consent)).not.toBeChecked();
      // A mistyped amount: the form comes back with its error, the box still ticked.
      await page.getByLabel(ui.donate.amount).fill('vingt');
      await page.getByLabel(ui.donate.consent).check();
      await page.getByRole('button', { name: ui.donate.pay }).click();
      await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
      await expect(page.getByLabel(ui.donate.consent)).toBeChecked();
      await page.getByLabel(ui.donate.amount).fill('25');
      await page.getByLabel(ui.donate.monthly).check();
      await page.getByRole('button', { name: ui.donate.pay }).click();
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_/);

      // Sign-in: the same answer as for anyone; the link comes by mail.
      await page.goto(`${server.baseURL}${ui.prefix}/mon-espace`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(ui.title);
      await expectAccessible(page);
      await page.getByLabel(ui.email, { exact: true }).fill(DONOR);
      await page.getByRole('button', { name: ui.send }).click();
      await expect(page.getByRole('main').getByRole('status')).toContainText(ui.sent);
      await expectAccessible(page);
      const text = await mailMatching(/\/mon-espace\/connexion\?t=/);
      const link = /(http:\/\/\S+\/mon-espace\/connexion\?t=[\w-]+)/.exec(text)![1];
      // The link opens the donor's space at their language's address.
      expect(link.startsWith(`${server.baseURL}${ui.prefix}/mon-espace/connexion?t=`)).toBe(true);

      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(ui.confirmTitle);
      await expectAccessible(page);
      await page.getByRole('button', { name: ui.open }).click();
      await expect(page).toHaveURL(`${server.baseURL}${ui.prefix}/mon-espace`);
      const gift = page.getByRole('main').getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
      await expect(gift.getByRole('heading', { level: 3 })).toHaveText(ui.perMonth(ui.amount25));
      await expect(page.getByRole('table')).toContainText(ui.amount25);
      await expectAccessible(page);
      // The space is never cached, and its cookie is HttpOnly and scoped to it, in each language:
      // public pages never carry it.
      const cookies = (await page.context().cookies()).filter((c) => c.name === '__donor');
      expect(cookies.map((c) => c.path).sort()).toEqual(['/en/mon-espace', '/es/mon-espace', '/mon-espace']);
      for (const cookie of cookies) expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      const res = await page.request.get(`${server.baseURL}${ui.prefix}/mon-espace`);
      expect(res.headers()['cache-control']).toBe('private, no-store');
      expect(res.headers()['x-cache']).toBeUndefined();

      // The link was single-use.
      const again = await page.context().newPage();
      await again.goto(link);
      await again.getByRole('button', { name: ui.open }).click();
      await expect(again.getByRole('alert')).toContainText(ui.linkInvalid);
      await expectAccessible(again);
      await again.close();

      // Lower the amount: Stripe is asked, the page and a mail confirm.
      const subId = [...stripe.subscriptions.keys()][0];
      await gift.getByLabel(ui.newAmount).fill('15');
      await gift.getByRole('button', { name: ui.change }).click();
      await expect(page.getByRole('main').getByRole('status')).toContainText(ui.changed);
      await expect(gift.getByRole('heading', { level: 3 })).toHaveText(ui.perMonth(ui.amount15));
      expect(stripe.subscriptions.get(subId).items.data[0].price.unit_amount).toBe(1500);
      expect(await mailMatching(ui.mailChanged)).toContain(`${server.baseURL}${ui.prefix}/mon-espace`);
      await expectAccessible(page);

      // Download everything kept under this email.
      const json = JSON.parse(await download(page, ui.json));
      expect(json.email).toBe(DONOR);
      expect(json.gifts).toEqual([expect.objectContaining({ amount: '25.00', frequency: 'monthly', status: 'succeeded', email: DONOR })]);
      expect(json.monthlyGifts).toEqual([expect.objectContaining({ id: subId, amount: '15.00', status: 'active' })]);
      expect(json.consents).toEqual([expect.objectContaining({ kind: 'newsletter', withdrawnAt: null })]);
      const csv = await download(page, ui.csv);
      expect(csv).toContain(`"gift"`);
      expect(csv).toContain(`"consent"`);

      // Another donor's gift, or a form posted from another site, is refused.
      const foreign = await page.request.post(`${server.baseURL}${ui.prefix}/mon-espace`, { form: { intent: 'stop', gift: 'sub_of_someone_else' }, headers: { Origin: server.baseURL } });
      expect(foreign.status()).toBe(404);
      expect(await foreign.text()).toContain(ui.notFound);
      // React Router refuses a foreign Origin (400) before our check would (403); Sec-Fetch-Site is ours.
      const byOrigin = await page.request.post(`${server.baseURL}/mon-espace`, { form: { intent: 'stop', gift: subId }, headers: { Origin: 'https://evil.example' } });
      expect([400, 403]).toContain(byOrigin.status());
      const byFetchSite = await page.request.post(`${server.baseURL}/mon-espace`, { form: { intent: 'stop', gift: subId }, headers: { 'Sec-Fetch-Site': 'cross-site' } });
      expect(byFetchSite.status()).toBe(403);
      expect(stripe.subscriptions.get(subId).status).toBe('active');

      // Stop the gift.
      await gift.getByRole('button', { name: ui.stop }).click();
      await expect(page.getByRole('main').getByRole('status')).toContainText(ui.stopped);
      await expect(gift.locator('[data-gift-status]')).toHaveText(ui.ended);
      await expect(gift.getByRole('button', { name: ui.stop })).toHaveCount(0);
      expect(stripe.subscriptions.get(subId).status).toBe('canceled');
      await expectAccessible(page);
      // Stripe's customer.subscription.deleted arrives afterwards: once our server has answered it,
      // the donor still sees the gift stopped, at its last amount, with nothing left to change.
      await expect.poll(() => stripe.delivered.filter((d) => d.type === 'customer.subscription.deleted')).toEqual([{ type: 'customer.subscription.deleted', status: 200 }]);
      await page.reload();
      await expect(gift.locator('[data-gift-status]')).toHaveText(ui.ended);
      await expect(gift.getByRole('heading', { level: 3 })).toHaveText(ui.perMonth(ui.amount15));
      await expect(gift.getByRole('button')).toHaveCount(0);

      await page.getByRole('button', { name: ui.signOut }).click();
      await expect(page.getByRole('main').getByRole('status')).toHaveText(ui.signedOut);
      await expect(page.getByLabel(ui.email, { exact: true })).toBeVisible();
    });

    // The back office is in French only.
    if (lang === 'fr') {
      test('an Admin finds the donor, exports their data and sees the newsletter opt-in', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/donations`);
      await page.getByRole('link', { name: 'Données d’un donateur' }).click();
      await page.getByLabel('Email du donateur').fill(DONOR);
      await page.getByRole('button', { name: 'Rechercher' }).click();
      await expect(page.getByRole('region', { name: DONOR })).toContainText('1 don(s)');
      await expectAccessible(page);
      const json = JSON.parse(await download(page, 'Exporter (JSON)'));
      expect(json.gifts).toHaveLength(1);
      // The opt-in, dated, with its gift (the news list itself is the letters' screen).
      expect(json.consents).toEqual([expect.objectContaining({ kind: 'newsletter', withdrawnAt: null })]);
      const audit = await server.db.selectFrom('audit_log').select(['action', 'user_name']).where('action', '=', 'donor.exported').execute();
      expect(audit).toEqual([{ action: 'donor.exported', user_name: 'Alice Admin' }]);
      });

      test('the space works without JavaScript: sign in, withdraw from the news, erase the data', async ({ browser }) => {
        const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-FR' });
        const page = await context.newPage();
        await page.goto(`${server.baseURL}/mon-espace`);
        await page.getByLabel('Adresse email', { exact: true }).fill('pas-un-email');
        await page.getByRole('button', { name: 'Recevoir mon lien de connexion' }).click();
        await expect(page.getByRole('main').getByRole('alert')).toHaveText('Veuillez saisir une adresse email valide.');
        await page.getByLabel('Adresse email', { exact: true }).fill(DONOR);
        await page.getByRole('button', { name: 'Recevoir mon lien de connexion' }).click();
        await expect(page.getByRole('main').getByRole('status')).toContainText('un lien de connexion vient de lui être envoyé');
        const link = /(http:\/\/\S+\/mon-espace\/connexion\?t=[\w-]+)/.exec(await mailMatching(/\/mon-espace\/connexion\?t=/))![1];
        await page.goto(link);
        await page.getByRole('button', { name: 'Ouvrir mon espace' }).click();
        await expect(page.getByText(`Connecté avec ${DONOR}`)).toBeVisible();
        await page.getByRole('button', { name: 'Ne plus recevoir les nouvelles' }).click();
        await expect(page.getByRole('main').getByRole('status')).toHaveText('C’est noté : vous ne recevrez plus les nouvelles de la fondation.');
        await expect(page.getByRole('button', { name: 'Ne plus recevoir les nouvelles' })).toHaveCount(0);
        // Erasure asks for a confirmation, then leaves no trace of the email; the gift's amount stays.
        await page.getByRole('button', { name: 'Effacer mes données' }).click();
        await expect(page.getByRole('main').getByRole('alert')).toHaveText('Cochez la case pour confirmer l’effacement.');
        await page.getByLabel('Je comprends que l’effacement est définitif').check();
        await page.getByRole('button', { name: 'Effacer mes données' }).click();
        await expect(page.getByRole('main').getByRole('status')).toHaveText('Vos données ont été effacées. Merci pour votre soutien.');
        await expect(page.getByLabel('Adresse email', { exact: true })).toBeVisible();
        const rows = await server.db.selectFrom('donations').select(['donor_email', 'amount_minor', 'status']).where('provider_ref', 'like', 'cs_%').execute();
        expect(rows).toEqual([{ donor_email: null, amount_minor: 2500, status: 'succeeded' }]);
        expect(await server.db.selectFrom('mail_outbox').select('id').where('to', '=', DONOR).execute()).toEqual([]);
        await context.close();
      });
    }
  });
}

test.describe('the news box on the PayPal and mobile money tabs', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  test.beforeAll(async () => {
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
  });
  test.afterAll(async () => {
    await pp?.close();
    await flw?.close();
  });
  const server = serverForSuite(
    'sqlite',
    () => ({ APP_SECRET, PAYPAL_API_BASE: pp.url, PAYPAL_SDK_URL: `${pp.url}/sdk/js`, FLUTTERWAVE_API_BASE: flw.url, FLUTTERWAVE_SCRIPT_URL: `${flw.url}/v3.js` }),
    (s) => enablePayPalAndFlutterwave(s.db, APP_SECRET),
  );
  /** The gifts of a method, each with the consents recorded on it. */
  const giftsOf = async (provider: string) =>
    Promise.all(
      (await server.db.selectFrom('donations').select(['id', 'status']).where('provider', '=', provider).orderBy('created_at').execute()).map(async (d) => ({
        status: d.status,
        consents: (await server.db.selectFrom('donor_consents').select('kind').where('donation_id', '=', d.id).execute()).map((c) => c.kind),
      })),
    );

  test('a donor who ticks "Recevoir des nouvelles de la fondation" is recorded with the gift, one who does not is not', async ({ page }) => {
    const consent = page.getByLabel('Recevoir des nouvelles de la fondation');
    for (const ticked of [true, false]) {
      await page.goto(`${server.baseURL}/faire-un-don?m=paypal`);
      await expect(consent).not.toBeChecked();
      if (ticked) {
        await consent.check();
        await expectAccessible(page);
      }
      await page.getByRole('button', { name: 'PayPal' }).click();
      await expect(page).toHaveURL(/\/payment\/success\?d=/);
    }
    expect(await giftsOf('paypal')).toEqual([
      { status: 'succeeded', consents: ['newsletter'] },
      { status: 'succeeded', consents: [] },
    ]);

    await page.goto(`${server.baseURL}/faire-un-don?m=mobileMoney`);
    await page.getByLabel('Nom complet').fill('Awa Diallo');
    await page.getByLabel('Email', { exact: true }).fill('awa@example.org');
    await page.getByLabel('Téléphone').fill('+221 77 000 00 00');
    await expect(consent).not.toBeChecked();
    await consent.check();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Donner par mobile money' }).click();
    await page.getByRole('dialog', { name: 'Fake Flutterwave checkout' }).getByRole('button', { name: 'Pay with mobile money' }).click();
    await expect(page).toHaveURL(/\/payment\/success\?d=/);
    expect(await giftsOf('flutterwave')).toEqual([{ status: 'succeeded', consents: ['newsletter'] }]);
  });
});
