import { expect, test } from '@playwright/test';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail } from '~/domain/subscribers/subscribers.server';
import { expectAccessible } from '../support';
import { memberInput, membershipType } from '../../support/membership';
import { startSmtp } from '../../support/smtp';
import { createAccount, freePort, signIn, skipUnlessAvailable, startAdminServer, type AdminServer } from './server';

const APP_SECRET = 'letters-e2e-secret-'.padEnd(48, 'l');
const READER = 'reader@example.org';
const MEMBER = 'membre@example.org';
const ASKED = 'appel@example.org';
const STAYS = 'reste@example.org';

/** A header's value, unfolded. */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw.split(/\r?\n\r?\n/)[0])?.[1].replace(/\r?\n[ \t]+/g, ' ').trim();

/**
 * News by email, end to end in Chromium (ADR 022): a visitor of the English blog subscribes and
 * confirms from the mail; an Éditeur makes a letter from a post, previews it and sends it; the
 * reader receives the English version, whose unsubscribe page only shows a button and whose
 * one-click address unsubscribes; an Admin sees the counts.
 */
test.describe('news by email', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  skipUnlessAvailable('sqlite');
  let server: AdminServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    smtp = await startSmtp();
    const port = await freePort();
    // The letters' links are absolute: the site's public address is this server's.
    server = await startAdminServer('sqlite', { APP_SECRET, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <lettres@example.org>', PUBLIC_URL: `http://127.0.0.1:${port}` });
    expect(server.baseURL).toBe(`http://127.0.0.1:${port}`);
    await createAccount(server.db, 'Éditeur', 'eric@example.org');
    await createAccount(server.db, 'Admin', 'alice@example.org');
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  test('a reader subscribes in English, an Éditeur sends a post as a letter, the reader leaves in one click', async ({ page, browser }) => {
    // The blog in English: its own sign-up form (the footer has another).
    await page.goto(`${server.baseURL}/en/blog`);
    const box = page.getByRole('region', { name: 'Get our news' }).first();
    await box.getByLabel('Your email address').fill(READER);
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByTestId('signup-sent')).toContainText('Check your inbox');
    await expectAccessible(page);

    const optIn = await smtp.mailTo(READER);
    expect(optIn.text).toContain('You asked to receive the THV Foundation’s news.');
    const confirm = /http:\/\/127\.0\.0\.1:\d+\/en\/lettre\/confirmer\/[\w-]+/.exec(optIn.text)![0];
    await page.goto(confirm);
    // Opening the link subscribes nobody: a button does.
    expect((await subscriberByEmail(server.db, READER))?.status).toBe('pending');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await expect(page.getByTestId('signup-confirmed')).toBeVisible();
    expect((await subscriberByEmail(server.db, READER))?.status).toBe('subscribed');

    // The Éditeur makes a letter from the newest post, previews it in English, sends it.
    const editor = await (await browser.newContext()).newPage();
    await signIn(editor, server.baseURL, 'eric@example.org');
    await editor.getByRole('link', { name: 'Lettres d’information' }).click();
    await expect(editor.getByRole('heading', { level: 1 })).toHaveText('Lettres d’information');
    await expectAccessible(editor);
    const post = (await editor.getByLabel('Faire une lettre d’un article publié').locator('option').first().textContent())!;
    await editor.getByRole('button', { name: 'Créer la lettre' }).click();
    await expect(editor.getByTestId('letter-notice')).toContainText('Lettre créée');
    await expect(editor.getByRole('heading', { level: 1 })).toHaveText(post);
    await expectAccessible(editor);
    const englishSubject = await editor.getByLabel('Objet').nth(1).inputValue();
    expect(englishSubject).not.toBe(post);
    const preview = await editor.request.get(`${editor.url().split('?')[0]}/apercu/en`);
    expect(await preview.text()).toContain(englishSubject);
    await editor.getByRole('button', { name: 'Envoyer maintenant' }).click();
    await expect(editor.getByTestId('letter-notice')).toContainText('Envoi lancé');
    const letterUrl = editor.url().split('?')[0];

    const letter = await smtp.mailTo(READER);
    expect(letter.text).toContain(englishSubject);
    expect(letter.text).toContain('Unsubscribe');
    expect(header(letter.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<(http:\/\/127\.0\.0\.1:\d+\/lettre\/desabonnement\/[^>]+\/un-clic)>/.exec(header(letter.raw, 'List-Unsubscribe')!)![1];
    // The text part's line, its quoted-printable soft line breaks joined.
    const footerLink = /Unsubscribe: (http:\/\/127\.0\.0\.1:\d+\/en\/lettre\/desabonnement\/[\w.-]+)/.exec(letter.text.replace(/=\r?\n/g, ''))![1];

    // The footer link shows one button and changes nothing by itself.
    await page.goto(footerLink);
    await expect(page.getByRole('button', { name: 'Unsubscribe me' })).toBeVisible();
    await expectAccessible(page);
    expect((await subscriberByEmail(server.db, READER))?.status).toBe('subscribed');
    // The mail client's one-click POST (RFC 8058): at once, 200, and again harmlessly.
    for (let i = 0; i < 2; i++) {
      const res = await page.request.post(oneClick, { form: { 'List-Unsubscribe': 'One-Click' }, maxRedirects: 0 });
      expect(res.status()).toBe(200);
    }
    expect((await subscriberByEmail(server.db, READER))?.status).toBe('unsubscribed');

    // An Admin sees the counts.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, server.baseURL, 'alice@example.org');
    await expect(async () => {
      await admin.goto(letterUrl);
      await expect(admin.getByTestId('letter-state')).toContainText('Envoyée');
    }).toPass({ timeout: 30_000 });
    await expect(admin.getByTestId('letter-count-sent')).toHaveText('1');
    await expect(admin.getByTestId('letter-count-queued')).toHaveText('0');
    await expectAccessible(admin);
    await admin.goto(`${server.baseURL}/admin/lettres/abonnes`);
    await expect(admin.getByTestId('subscribers')).toContainText(READER);
    await expect(admin.getByTestId('count-unsubscribed')).toHaveText('1');
    await expectAccessible(admin);
    await admin.goto(`${server.baseURL}/admin/lettres/rythme`);
    await expectAccessible(admin);
  });

  test('a member stops the news in their space, an Admin takes another address off: the next letter reaches neither, until a new opt-in', async ({ page, browser }) => {
    const type = await createType(server.db, { id: null, name: 'Seed' }, membershipType());
    // A member who ticked the news box on their form, and who also confirmed a sign-up.
    await createMember(server.db, null, memberInput(type, { email: MEMBER, exempt: true, news: true }));
    for (const email of [MEMBER, ASKED, STAYS]) {
      const r = await requestSignup(server.db, { email, language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
      if (r.kind === 'ask') await confirmSignup(server.db, r.token);
    }

    // The member's own space (no JavaScript needed): one button, then a sentence.
    await page.goto(`${server.baseURL}/mon-espace`);
    await page.getByLabel('Adresse email', { exact: true }).fill(MEMBER);
    await page.getByRole('button', { name: 'Recevoir mon lien de connexion' }).click();
    const link = /(http:\/\/\S+\/mon-espace\/connexion\?t=[\w-]+)/.exec((await smtp.mailTo(MEMBER)).text)![1];
    await page.goto(link);
    await page.getByRole('button', { name: 'Ouvrir mon espace' }).click();
    await page.getByRole('button', { name: 'Ne plus recevoir les nouvelles' }).click();
    await expect(page.getByRole('main').getByRole('status')).toHaveText('C’est noté : vous ne recevrez plus les nouvelles de la fondation.');
    await expect(page.getByRole('button', { name: 'Ne plus recevoir les nouvelles' })).toHaveCount(0);
    await expectAccessible(page);

    // An Admin, at a person's request, from the subscribers' list.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, server.baseURL, 'alice@example.org');
    await admin.goto(`${server.baseURL}/admin/lettres/abonnes?status=subscribed`);
    await admin.getByRole('link', { name: `Désabonner ${ASKED}` }).click();
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Désabonner une adresse');
    await expectAccessible(admin);
    await admin.getByRole('button', { name: 'Désabonner' }).click();
    await expect(admin).toHaveURL(/status=unsubscribed/);
    await expect(admin.getByTestId('subscribers')).toContainText(ASKED);
    await expect(admin.getByTestId('subscribers')).toContainText(MEMBER);

    // The next letter, sent by an Éditeur, reaches only who stayed.
    const editor = await (await browser.newContext()).newPage();
    await signIn(editor, server.baseURL, 'eric@example.org');
    await editor.goto(`${server.baseURL}/admin/lettres`);
    await editor.getByRole('button', { name: 'Créer la lettre' }).click();
    await expect(editor.getByTestId('letter-notice')).toContainText('Lettre créée');
    await editor.getByRole('button', { name: 'Envoyer maintenant' }).click();
    await expect(editor.getByTestId('letter-notice')).toContainText('Envoi lancé');
    await smtp.mailTo(STAYS);
    await expect(async () => {
      await editor.reload();
      await expect(editor.getByTestId('letter-state')).toContainText('Envoyée');
    }).toPass({ timeout: 30_000 });
    expect(smtp.mails.filter((m) => m.to.includes(MEMBER) || m.to.includes(ASKED))).toEqual([]);

    // A new double opt-in, and only that, brings the member back.
    const again = await requestSignup(server.db, { email: MEMBER, language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
    expect(again.kind).toBe('ask');
    if (again.kind === 'ask') await confirmSignup(server.db, again.token);
    expect((await subscriberByEmail(server.db, MEMBER))?.status).toBe('subscribed');
  });

  test('an Admin sets the letters’ sender from the keyboard; the DNS check reads its domain', async ({ browser }) => {
    // Its validation, versions and audit: tests/integration/letter-routes.test.ts.
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, server.baseURL, 'alice@example.org');
    await admin.goto(`${server.baseURL}/admin/lettres/expediteur`);
    await expect(admin.getByText('lettres@example.org')).toBeVisible();
    await admin.getByLabel('Nom de l’expéditeur').fill('Fondation THV');
    await admin.getByLabel('Adresse d’expédition').fill('nouvelles@envoi.example.net');
    await admin.getByLabel('Adresse d’expédition').press('Enter');
    await expect(admin.getByText('Expéditeur enregistré.')).toBeVisible();
    await expectAccessible(admin);
    await admin.goto(`${server.baseURL}/admin/lettres/dns`);
    await expect(admin.getByLabel('Domaine')).toHaveValue('envoi.example.net');
  });
});
