import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, PASSWORD, createAccount, serverForSuite, signIn } from './server';

for (const dialect of DIALECTS) {
  test.describe(`sign-in on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    const server = serverForSuite(dialect);

    test('first start: the setup form creates the first Admin, once', async ({ page }) => {
      await page.goto(`${server.baseURL}/admin/dashboard`);
      await expect(page).toHaveURL(`${server.baseURL}/admin/setup`);
      await expect(page.getByRole('heading', { name: 'Premier démarrage' })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('Nom').fill('Alice Admin');
      await page.getByLabel('Email').fill('Alice@Example.org');
      await page.getByLabel('Mot de passe', { exact: true }).fill('court');
      await page.getByLabel('Confirmer le mot de passe').fill('court');
      await page.getByRole('button', { name: 'Créer le compte Admin' }).click();
      await expect(page.getByLabel('Mot de passe', { exact: true })).toHaveAccessibleDescription(/Au moins 12 caractères.*doit contenir au moins 12 caractères/);
      await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirmer le mot de passe').fill(PASSWORD);
      await page.getByRole('button', { name: 'Créer le compte Admin' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/dashboard`);
      await expect(page.getByTestId('greeting')).toContainText('Bonjour, Alice Admin');
      const user = await server.db.selectFrom('users').select(['email', 'role', 'password_hash']).executeTakeFirstOrThrow();
      expect(user.email).toBe('alice@example.org');
      expect(user.role).toBe('Admin');
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);

      // Once someone exists the setup form is gone, for everyone.
      const other = await page.context().browser()!.newPage();
      await other.goto(`${server.baseURL}/admin/setup`);
      await expect(other).toHaveURL(`${server.baseURL}/admin/login`);
      await other.close();
    });

    test('a wrong password shows the error and stays; the right one opens the dashboard after the toast', async ({ page }) => {
      await page.goto(`${server.baseURL}/admin/login`);
      await expectAccessible(page);
      await page.getByLabel('Email').fill('alice@example.org');
      await page.getByLabel('Mot de passe').fill('pas le bon mot de passe');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Erreur de connexion');
      await expect(toast).toContainText('Email ou mot de passe incorrect.');
      await expect(page).toHaveURL(`${server.baseURL}/admin/login`);

      await page.getByLabel('Mot de passe').fill(PASSWORD);
      // The page's clock is ours from here, and stands still: the toast's second is counted, not waited for.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await expect(toast).toContainText('Connexion réussie !');
      await expect(toast).toContainText('Bienvenue sur le tableau de bord.');
      await page.clock.runFor(999);
      await expect(page).toHaveURL(`${server.baseURL}/admin/login`);
      await page.clock.runFor(1);
      await page.waitForURL(`${server.baseURL}/admin/dashboard`);
      await expect(page.getByText('Tableau de Bord Administrateur')).toBeVisible();

      const cookie = (await page.context().cookies()).find((c) => c.name === '__session')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
      // The database holds the token's hash, not the token.
      const ids = (await server.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
      expect(ids).not.toContain(cookie.value);
      expect(ids.length).toBeGreaterThan(0);

      const log = await server.db.selectFrom('audit_log').select(['action', 'target', 'details']).orderBy('at').execute();
      expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['auth.login_failed', 'auth.login']));
      expect(JSON.stringify(log)).not.toContain(PASSWORD);
      await expect(page.getByTestId('activity')).toContainText('Échec de connexion');
    });

    test('signing in sends the visitor back to the admin page they asked for', async ({ page }) => {
      await page.goto(`${server.baseURL}/admin/users`);
      await expect(page).toHaveURL(`${server.baseURL}/admin/login?redirectTo=%2Fadmin%2Fusers`);
      await page.getByLabel('Email').fill('alice@example.org');
      await page.getByLabel('Mot de passe').fill(PASSWORD);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(`${server.baseURL}/admin/users`);
      await expect(page.getByRole('heading', { name: 'Utilisateurs' })).toBeVisible();
    });

    test('sign-out ends the session on the server', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      const token = (await page.context().cookies()).find((c) => c.name === '__session')!.value;
      await page.getByRole('button', { name: 'Déconnexion' }).click();
      await expect(page).toHaveURL(/\/admin\/login/);
      const toast = page.locator('[data-toast-region] li');
      await expect(toast).toContainText('Déconnexion réussie');
      await expect(toast).toContainText('Vous avez été déconnecté.');
      // The old cookie, replayed, opens nothing.
      const res = await page.request.get(`${server.baseURL}/admin/dashboard`, { headers: { Cookie: `__session=${token}` }, maxRedirects: 0 });
      expect(res.status()).toBe(302);
      expect(res.headers().location).toBe('/admin/login');
    });

    test('an idle or too old session sends the user back to the sign-in page', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      const threeHoursAgo = new Date(Date.now() - 3 * 3600_000).toISOString();
      await server.db.updateTable('sessions').set({ last_seen_at: threeHoursAgo }).execute();
      await page.goto(`${server.baseURL}/admin/users`);
      await expect(page).toHaveURL(`${server.baseURL}/admin/login?redirectTo=%2Fadmin%2Fusers`);
      expect((await page.context().cookies()).find((c) => c.name === '__session')).toBeUndefined();

      await signIn(page, server.baseURL, 'alice@example.org');
      await server.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
      await page.getByRole('link', { name: 'Utilisateurs', exact: true }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/login?redirectTo=%2Fadmin%2Fusers`);
    });

    test('after five failures the account is refused with 429, even with the right password', async ({ page }) => {
      await server.db.deleteFrom('rate_limits').execute();
      await createAccount(server.db, 'Éditeur', 'cible@example.org');
      await page.goto(`${server.baseURL}/admin/login`);
      const toast = page.locator('[data-toast-region] li');
      for (let i = 0; i < 5; i++) {
        await page.getByLabel('Email').fill('cible@example.org');
        await page.getByLabel('Mot de passe').fill(`mauvais mot de passe ${i}`);
        const answer = page.waitForResponse((r) => r.request().method() === 'POST');
        await page.getByRole('button', { name: 'Se connecter' }).click();
        expect((await answer).status()).toBe(400);
        await expect(toast).toContainText('Email ou mot de passe incorrect.');
      }
      await page.getByLabel('Mot de passe').fill(PASSWORD);
      const answer = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      expect((await answer).status()).toBe(429);
      await expect(toast).toContainText('Trop de tentatives');
      await expect(toast).toContainText(/Réessayez dans 1[45] minutes\./);
      await expect(page).toHaveURL(`${server.baseURL}/admin/login`);
      const blocked = await server.db.selectFrom('audit_log').select('action').where('action', '=', 'auth.login_blocked').execute();
      expect(blocked.length).toBe(1);
    });

    test('failures on one account never refuse another account from the same address, until the address sprays twenty; reset requests are limited too', async ({ playwright }) => {
      let request = await playwright.request.newContext();
      const post = (path: string, form: Record<string, string>) =>
        request.post(`${server.baseURL}${path}`, { form, headers: { Origin: server.baseURL }, maxRedirects: 0 });
      // The address already has 5 failures on cible@ from the previous test (ADR 010): alice@ still signs in.
      expect((await post('/admin/login', { email: 'alice@example.org', password: PASSWORD })).status()).toBe(303);
      // Signed out again (a signed-in visitor of the sign-in page is sent on to the dashboard).
      await request.dispose();
      request = await playwright.request.newContext();
      // Fifteen more failures over other accounts: twenty from this address, which now waits.
      for (let i = 0; i < 15; i++) expect((await post('/admin/login', { email: `spray${i}@example.org`, password: 'faux' })).status()).toBe(400);
      const res = await post('/admin/login', { email: 'alice@example.org', password: PASSWORD });
      expect(res.status()).toBe(429);
      expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
      expect(await res.text()).toContain('Trop de tentatives');

      // Reset requests are counted per (account, address) and per address (ADR 010): five for one
      // account from this address, then that pair waits, while another account is still answered
      // (503 here: no SMTP server, so no mail can leave).
      for (let i = 0; i < 5; i++) expect((await post('/admin/mot-de-passe-oublie', { email: 'alice@example.org' })).status()).toBe(503);
      const limited = await post('/admin/mot-de-passe-oublie', { email: 'alice@example.org' });
      expect(limited.status()).toBe(429);
      expect(await limited.text()).toContain('Trop de demandes');
      expect((await post('/admin/mot-de-passe-oublie', { email: 'bob@example.org' })).status()).toBe(503);
      await request.dispose();
    });
  });
}
