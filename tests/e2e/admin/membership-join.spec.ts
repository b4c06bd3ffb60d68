import { expect, test } from '@playwright/test';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { addDays, yearFrom } from '~/domain/membership/period';
import { createMember } from '~/domain/membership/register.server';
import { runMembershipReminders } from '~/domain/membership/reminders.server';
import { saveMembershipSettings } from '~/domain/membership/settings.server';
import { createType } from '~/domain/membership/types.server';
import { DEFAULT_MEMBERSHIP_SETTINGS } from '~/domain/membership/forms';
import { expectAccessible } from '../support';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { enableStripeCard } from '../../support/donations';
import { memberInput, membershipType } from '../../support/membership';
import { attachedPdf, pdfText } from '../../support/pdf';
import { startSmtp } from '../../support/smtp';
import { DIALECTS, serverForSuite } from './server';

const APP_SECRET = 'membership-join-e2e-'.padEnd(48, 'm');
const WHSEC = 'whsec_join_e2e';
const SEED = { id: null, name: 'Seed' };

/** Joining and renewing online (issue 32): the visitor's way, through the local Stripe fake and SMTP sink, on both databases. */
for (const dialect of DIALECTS) {
  test.describe(`joining online on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let stripe: FakeStripe;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let renewing = { id: '', oldEnd: '' };
    test.beforeAll(async () => {
      smtp = await startSmtp();
      stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe` });
    });
    test.afterAll(async () => {
      await stripe?.close();
      await smtp?.close();
    });
    const server = serverForSuite(
      dialect,
      () => ({ STRIPE_API_BASE: stripe.url, APP_SECRET, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }),
      async (s) => {
        await enableStripeCard(s.db, APP_SECRET, { secretKey: 'sk_test_join', webhookSecret: WHSEC });
        const active = await createType(s.db, SEED, membershipType());
        await createType(s.db, SEED, membershipType({ name_fr: 'Membre d’honneur', dues: '0' }));
        await saveMembershipSettings(s.db, SEED, { ...DEFAULT_MEMBERSHIP_SETTINGS, statutesUrl: '/media/statuts.pdf' }, 0);
        // A member whose year ends in about two months (paid ten months ago, by cheque): no reminder
        // is due on the real clock, so the server's own hourly job sends none during the suite.
        const { id } = await createMember(s.db, null, memberInput(active, { first_name: 'Moussa', last_name: 'Traoré', email: 'moussa@example.org' }));
        const paid = await applyDuesPayment(s.db, { membershipId: id, paymentId: `cheque-${id}`, amountCents: 3000, paidAt: new Date(Date.now() - 300 * 86_400_000).toISOString(), method: 'cheque' });
        if (paid.status !== 'applied') throw new Error('not applied');
        renewing = { id, oldEnd: paid.endsOn };
      },
    );

    test('a visitor joins and pays by card: the membership is active once Stripe confirms it, and the member is mailed the card', async ({ page }) => {
      await page.goto(`${server.baseURL}/devenir-membre`);
      await expect(page.getByRole('heading', { name: 'Adhérer en ligne' })).toBeVisible();
      await expect(page.getByRole('radio', { name: /Membre d’honneur/ })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Lire les statuts (nouvel onglet)' })).toHaveAttribute('href', '/media/statuts.pdf');
      await expectAccessible(page);
      // Nothing filled: the server's errors, beside each field.
      await page.getByRole('button', { name: 'Adhérer' }).click();
      await expect(page.getByRole('alert')).toContainText('Le formulaire contient des erreurs.');
      await expect(page.getByLabel('Prénom', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Vous devez adhérer aux statuts pour devenir membre.')).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Prénom', { exact: true }).fill('Aminata');
      await page.getByLabel('Nom', { exact: true }).fill('Koné');
      await page.getByLabel('Adresse email', { exact: true }).fill('aminata@example.org');
      await page.getByLabel('Adresse postale', { exact: true }).fill('4 place du Marché');
      await page.getByLabel('Code postal', { exact: true }).fill('69001');
      await page.getByLabel('Ville', { exact: true }).fill('Lyon');
      await page.getByLabel('Pays', { exact: true }).fill('France');
      await page.getByRole('radio', { name: /Membre actif/ }).check();
      await page.getByRole('radio', { name: 'Carte bancaire' }).check();
      await page.getByLabel('J’ai lu les statuts de la fondation et j’y adhère.').check();
      await page.getByLabel(/J’accepte que mes données soient traitées/).check();
      await page.getByRole('button', { name: 'Adhérer' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await expect(page.locator('#amount')).toHaveText('30.00 EUR');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/devenir-membre\/merci\?session_id=cs_/);
      await expect(page.getByRole('heading', { name: 'Merci pour votre adhésion' })).toBeVisible();
      await expect(page.getByTestId('membership-outcome')).toContainText(/Votre adhésion n° \d+ est active jusqu’au/);
      await expectAccessible(page);
      const m = await server.db.selectFrom('memberships').select(['id', 'ends_on']).where('email', '=', 'aminata@example.org').executeTakeFirstOrThrow();
      expect(m.ends_on).not.toBeNull();
      const mail = await smtp.mailTo('aminata@example.org');
      const body = mail.text.replace(/\s+/g, ' ');
      expect(body).toContain('Bonjour Aminata Koné, nous avons bien reçu votre cotisation de 30,00');
      expect(body).toMatch(/Votre adhésion n° \d+ \(Membre actif\) est active jusqu’au/);
      expect(body).toContain('Votre carte de membre est jointe à ce message');
      const number = await server.db.selectFrom('memberships').select('number').where('email', '=', 'aminata@example.org').executeTakeFirstOrThrow();
      const card = attachedPdf(mail.raw);
      expect(card.name).toBe(`carte-membre-${number.number}.pdf`);
      expect(await pdfText(card.pdf)).toMatch(/Aminata Koné Type d’adhésion Membre actif .*Valable jusqu’au \d+ \S+ \d{4}/);
    });

    test('the reminder job, on a moved clock, mails the renewal link; it opens a pre-filled form, pays through Stripe, and the new year follows the old end date', async ({ page }) => {
      // The clock moved to 30 days before the end, 10:00 in Paris: the first step of the default schedule is due.
      const moved = new Date(`${addDays(renewing.oldEnd, -30)}T09:00:00.000Z`);
      const run = await runMembershipReminders({ db: server.db, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }, publicUrl: server.baseURL, secret: APP_SECRET }, moved);
      expect(run).toEqual({ emailed: 1, paper: 0, failed: 0 });
      const reminder = await smtp.mailTo('moussa@example.org');
      const link = /https?:\/\/\S+\/devenir-membre\?renouveler=[\w.%-]+/.exec(reminder.text)?.[0];
      expect(link).toBeDefined();
      expect(link!.startsWith(server.baseURL)).toBe(true);
      await page.goto(link!);
      await expect(page.getByRole('heading', { name: 'Renouveler votre adhésion' })).toBeVisible();
      await expect(page.getByTestId('renewal-summary')).toContainText('Moussa Traoré');
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Renouveler et payer' }).click();
      await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(/\/devenir-membre\/merci\?session_id=cs_/);
      const newEnd = yearFrom(addDays(renewing.oldEnd, 1));
      const m = await server.db.selectFrom('memberships').select('ends_on').where('id', '=', renewing.id).executeTakeFirstOrThrow();
      expect(m.ends_on).toBe(newEnd);
      const shown = new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${newEnd}T00:00:00Z`));
      await expect(page.getByTestId('membership-outcome')).toContainText(`est active jusqu’au ${shown}`);
      // A forged link renews nothing.
      await page.goto(`${server.baseURL}/devenir-membre?renouveler=forged.1.x`);
      await expect(page.getByText('Ce lien de renouvellement n’est plus valable.')).toBeVisible();
    });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });
      test('"je paie autrement" records a pending membership and says it waits for the team', async ({ page }) => {
        await page.goto(`${server.baseURL}/devenir-membre`);
        await page.getByLabel('Prénom', { exact: true }).fill('Ibrahim');
        await page.getByLabel('Nom', { exact: true }).fill('Cissé');
        await page.getByLabel('Adresse email', { exact: true }).fill('ibrahim@example.org');
        await page.getByLabel('Adresse postale', { exact: true }).fill('1 rue Haute');
        await page.getByLabel('Code postal', { exact: true }).fill('13001');
        await page.getByLabel('Ville', { exact: true }).fill('Marseille');
        await page.getByLabel('Pays', { exact: true }).fill('France');
        await page.getByRole('radio', { name: /Je paie autrement/ }).check();
        await page.getByLabel('J’ai lu les statuts de la fondation et j’y adhère.').check();
        await page.getByLabel(/J’accepte que mes données soient traitées/).check();
        await page.getByRole('button', { name: 'Adhérer' }).click();
        await expect(page.getByRole('heading', { name: 'Demande d’adhésion enregistrée' })).toBeVisible();
        const m = await server.db.selectFrom('memberships').select('ends_on').where('email', '=', 'ibrahim@example.org').executeTakeFirstOrThrow();
        expect(m.ends_on).toBeNull();
      });
    });
  });
}
