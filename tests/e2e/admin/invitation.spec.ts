import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, PASSWORD, serverForSuite, signIn } from './server';
import { startSmtp } from '../../support/smtp';

const EDITOR_PASSWORD = 'mot de passe de l’éditeur';

for (const dialect of DIALECTS) {
  test.describe(`invitations and resets by mail on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    test.beforeAll(async () => {
      smtp = await startSmtp();
    });
    test.afterAll(async () => {
      await smtp?.close();
    });
    // ADMIN_EMAIL / ADMIN_PASSWORD create the first Admin at start.
    const server = serverForSuite(dialect, () => ({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'chef@example.org', ADMIN_PASSWORD: PASSWORD, MAIL_FROM: 'Fondation THV <admin@example.org>' }));

    test('an Admin invites an Éditeur, who sets a password from the mail and signs in with Éditeur rights', async ({ page, browser }) => {
      await signIn(page, server.baseURL, 'chef@example.org');
      await page.getByRole('link', { name: 'Utilisateurs', exact: true }).click();
      await page.getByRole('link', { name: 'Ajouter un utilisateur' }).click();
      await expect(page.getByLabel('Rôle')).toHaveValue('Éditeur');
      await expectAccessible(page);
      await page.getByLabel('Nom').fill('Éric Éditeur');
      await page.getByLabel('Email').fill('eric@example.org');
      await page.getByRole('button', { name: 'Ajouter et inviter' }).click();
      await expect(page.locator('[data-toast-region] li')).toContainText('Utilisateur ajouté !');
      const panel = page.getByTestId('invitation');
      await expect(panel).toContainText('Email envoyé à eric@example.org.');
      const shown = await page.getByLabel(/Lien d'invitation/).inputValue();
      expect(shown).toMatch(new RegExp(`^${server.baseURL}/admin/invitation/[A-Za-z0-9_-]{43}$`));

      const mail = await smtp.mailTo('eric@example.org');
      expect(mail.text).toContain('Subject: Invitation au tableau de bord Fondation THV');
      expect(mail.text).toContain('Bonjour Éric Éditeur,');
      expect(mail.text).toContain('Admin vous invite à rejoindre le tableau de bord administrateur');
      expect(mail.text).toMatch(/Content-Type: text\/plain/);
      expect(mail.text).toMatch(/Content-Type: text\/html/);
      expect(mail.text).toContain(shown);
      // The database keeps only a hash of the link's token.
      const token = shown.split('/').pop()!;
      const stored = await server.db.selectFrom('auth_tokens').select('id').execute();
      expect(stored.map((r) => r.id)).not.toContain(token);

      const editor = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
      await editor.goto(shown);
      await expect(editor.getByRole('heading', { name: "Bienvenue dans l'équipe" })).toBeVisible();
      await expectAccessible(editor);
      await editor.getByLabel('Nouveau mot de passe').fill(EDITOR_PASSWORD);
      await editor.getByLabel('Confirmer le mot de passe').fill('autre chose encore');
      await editor.getByRole('button', { name: 'Activer mon compte' }).click();
      await expect(editor.getByLabel('Confirmer le mot de passe')).toHaveAccessibleDescription('Les deux mots de passe ne correspondent pas.');
      await editor.getByLabel('Confirmer le mot de passe').fill(EDITOR_PASSWORD);
      await editor.getByRole('button', { name: 'Activer mon compte' }).click();
      await expect(editor).toHaveURL(/\/admin\/login\?mot-de-passe-defini=1$/);
      await expect(editor.locator('[data-toast-region] li')).toContainText('Mot de passe enregistré');

      // The link worked once.
      const again = await editor.goto(shown);
      expect(again!.status()).toBe(410);
      await expect(editor.getByText('Lien invalide ou expiré')).toBeVisible();

      await signIn(editor, server.baseURL, 'eric@example.org', EDITOR_PASSWORD);
      await expect(editor.getByTestId('greeting')).toContainText('Bonjour, Éric Éditeur');
      const menu = editor.getByRole('navigation', { name: "Menu d'administration" });
      for (const entry of ['Dashboard', 'Gestion des pages', 'Projets / Actions', 'Actualités / Blog', 'Partenaires', 'Médiathèque', 'Messages']) {
        await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
      }
      for (const entry of ['Utilisateurs', 'Paramètres', 'Paiements', 'Dons', 'Reçus']) await expect(menu.getByRole('link', { name: entry, exact: true })).toHaveCount(0);
      await expect(editor.getByRole('link', { name: 'Gérer les utilisateurs' })).toHaveCount(0);

      for (const path of ['/admin/users', '/admin/users/new', '/admin/settings', '/admin/payments', '/admin/donations']) {
        const res = await editor.goto(`${server.baseURL}${path}`);
        expect(res!.status(), path).toBe(403);
        await expect(editor.getByRole('heading', { name: 'Accès refusé' })).toBeVisible();
      }
      // …and an action sent straight to the server is refused the same way.
      const post = await editor.request.post(`${server.baseURL}/admin/users/new`, {
        form: { name: 'Intrus', email: 'intrus@example.org', role: 'Admin' },
        headers: { Origin: server.baseURL },
        maxRedirects: 0,
      });
      expect(post.status()).toBe(403);
      expect(await server.db.selectFrom('users').select('id').where('email', '=', 'intrus@example.org').executeTakeFirst()).toBeUndefined();
      await editor.context().close();
    });

    test('"Mot de passe oublié ?" mails a one-time link that sets a new password and ends old sessions', async ({ page, browser }) => {
      const other = await (await browser.newContext()).newPage();
      await signIn(other, server.baseURL, 'eric@example.org', EDITOR_PASSWORD);

      await page.goto(`${server.baseURL}/admin/login`);
      await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Mot de passe oublié ?' })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Email').fill('ERIC@example.org');
      await page.getByRole('button', { name: 'Envoyer le lien' }).click();
      await expect(page.getByTestId('reset-outcome')).toContainText('Si un compte correspond à cette adresse');
      // An unknown address reads the same.
      await page.getByLabel('Email').fill('personne@example.org');
      await page.getByRole('button', { name: 'Envoyer le lien' }).click();
      await expect(page.getByTestId('reset-outcome')).toContainText('Si un compte correspond à cette adresse');

      const mail = await smtp.mailTo('eric@example.org');
      expect(mail.text).toContain('Une réinitialisation du mot de passe de votre compte Fondation THV a été demandée.');
      const link = mail.text.match(/http:\/\/127\.0\.0\.1:\d+\/admin\/reinitialiser\/[A-Za-z0-9_-]+/)![0];
      await page.goto(link);
      await page.getByLabel('Nouveau mot de passe').fill('un tout nouveau mot de passe');
      await page.getByLabel('Confirmer le mot de passe').fill('un tout nouveau mot de passe');
      await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
      await expect(page).toHaveURL(/mot-de-passe-defini=1/);
      await signIn(page, server.baseURL, 'eric@example.org', 'un tout nouveau mot de passe');

      // The session opened with the old password is over.
      await other.reload();
      await expect(other).toHaveURL(/\/admin\/login/);
      await other.context().close();
      expect((await page.goto(link))!.status()).toBe(410);
    });
  });
}
