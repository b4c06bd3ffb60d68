import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

for (const dialect of DIALECTS) {
  test.describe(`users screen on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Admin', 'alice@example.org');
      await createAccount(s.db, 'Éditeur', 'eric@example.org');
    });

    test('the list shows a badge per role; the last Admin can be neither demoted nor deleted', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/users`);
      await expect(page.getByRole('link', { name: 'Utilisateurs', exact: true })).toHaveAttribute('aria-current', 'page');
      await expectAccessible(page);
      const alice = page.getByTestId('user-row').filter({ hasText: 'alice@example.org' });
      const eric = page.getByTestId('user-row').filter({ hasText: 'eric@example.org' });
      await expect(alice.getByText('Admin', { exact: true })).toBeVisible();
      await expect(eric.getByText('Éditeur', { exact: true })).toBeVisible();

      await alice.getByRole('button', { name: /Supprimer/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Êtes-vous sûr ?' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Supprimer' }).click();
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Action impossible');
      await expect(toast).toContainText('Vous ne pouvez pas supprimer le seul utilisateur Admin.');
      await expect(alice).toBeVisible();

      await alice.getByRole('link', { name: /Modifier/ }).click();
      await page.getByLabel('Rôle').selectOption('Éditeur');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(toast).toContainText('Action impossible');
      await expect(toast).toContainText('Vous ne pouvez pas supprimer le seul utilisateur Admin ni lui retirer son rôle.');
      expect((await server.db.selectFrom('users').select('role').where('email', '=', 'alice@example.org').executeTakeFirstOrThrow()).role).toBe('Admin');
    });

    test('an Admin edits a user, and deletes one after "Êtes-vous sûr ?", which ends their sessions', async ({ page, browser }) => {
      const ericContext = await browser.newContext();
      const ericPage = await ericContext.newPage();
      await signIn(ericPage, server.baseURL, 'eric@example.org');

      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/users`);
      const eric = page.getByTestId('user-row').filter({ hasText: 'eric@example.org' });
      await eric.getByRole('link', { name: /Modifier/ }).click();
      await expect(page.getByRole('heading', { level: 1, name: /^Modifier/ })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Nom').fill('Éric Durand');
      await page.getByLabel('Email').fill('pas un email');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByLabel('Email')).toHaveAccessibleDescription("L'email n'est pas valide.");
      await page.getByLabel('Email').fill('alice@example.org');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Un utilisateur utilise déjà cet email.');
      await page.getByLabel('Email').fill('eric.durand@example.org');
      await page.getByLabel('Rôle').selectOption('Admin');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Utilisateur mis à jour !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/users`);
      const row = page.getByTestId('user-row').filter({ hasText: 'eric.durand@example.org' });
      await expect(row).toContainText('Éric Durand');
      await expect(row.getByText('Admin', { exact: true })).toBeVisible();

      // The new role counts at once, in the session Éric already had.
      await ericPage.goto(`${server.baseURL}/admin/users`);
      await expect(ericPage.getByRole('heading', { name: 'Utilisateurs' })).toBeVisible();

      await row.getByRole('button', { name: /Supprimer/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Êtes-vous sûr ?' });
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toBeVisible();
      await row.getByRole('button', { name: /Supprimer/ }).click();
      await dialog.getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast).toContainText('Utilisateur supprimé');
      await expect(row).toHaveCount(0);

      await ericPage.reload();
      await expect(ericPage).toHaveURL(/\/admin\/login/);
      const actions = (await server.db.selectFrom('audit_log').select('action').execute()).map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['user.update', 'user.delete']));
      await ericContext.close();
    });

    test('the last user gets the spec\'s refusal, and a user changes their own password', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/users`);
      await expect(page.getByTestId('user-row')).toHaveCount(1);
      await page.getByRole('button', { name: /Supprimer/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Action impossible');
      await expect(toast).toContainText('Vous ne pouvez pas supprimer le seul utilisateur.');

      await page.getByRole('link', { name: 'Mon mot de passe' }).click();
      // Judged once the page has changed: axe running during the client-side navigation once sampled
      // the side menu's "Utilisateurs" entry half-way through its colour transition (CI, stop 23).
      await expect(page.getByRole('heading', { level: 1, name: 'Mon mot de passe' })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Mot de passe actuel').fill('pas le bon');
      await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('encore un autre mot de passe');
      await page.getByLabel('Confirmer le nouveau mot de passe').fill('encore un autre mot de passe');
      await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
      await expect(page.getByLabel('Mot de passe actuel')).toHaveAccessibleDescription('Mot de passe actuel incorrect.');
      await page.getByLabel('Mot de passe actuel').fill('un mot de passe solide');
      await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
      await expect(toast).toContainText('Mot de passe modifié');
      await page.getByRole('button', { name: 'Déconnexion' }).click();
      // Signed out (a password change ends the session), back on the login page, before signing in with the new password.
      await page.waitForURL(`${server.baseURL}/admin/login?deconnecte=1`);
      await signIn(page, server.baseURL, 'alice@example.org', 'encore un autre mot de passe');
    });

    test('on a small screen the menu is a drawer that slides in and closes on Escape', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, server.baseURL, 'alice@example.org', 'encore un autre mot de passe');
      const menu = page.getByRole('navigation', { name: "Menu d'administration" });
      await expect(menu).toBeHidden();
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(menu).toBeVisible();
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await page.getByRole('button', { name: 'Menu' }).click();
      await menu.getByRole('link', { name: 'Utilisateurs' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/users`);
      await expect(menu).toBeHidden();
      await expect(page.getByRole('link', { name: 'Voir le site (nouvel onglet)' })).toHaveAttribute('target', '_blank');
    });
  });
}
