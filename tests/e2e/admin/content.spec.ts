import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { expectPublishedToast } from './preview';
import { sitePath, type Lang } from '~/lib/lang-path';

const ADMIN = 'alice@example.org';
const EDITOR = 'eric@example.org';

const toast = (page: Page) => page.locator('[data-toast-region] li');

/** Waits for the lazy editor, then types into it (with Bold for the second part). */
async function typeRich(page: Page, label: string, plain: string, bold?: string) {
  const editor = page.getByRole('textbox', { name: label, exact: true });
  await expect(page.getByRole('toolbar', { name: 'Mise en forme' }).first()).toBeVisible();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(plain);
  if (bold) {
    await page.locator('[role=tabpanel]:not([hidden])').getByRole('button', { name: 'Gras' }).click();
    await page.keyboard.type(bold);
  }
}

const tab = (page: Page, lang: 'FR' | 'EN' | 'ES') => page.getByRole('tab', { name: new RegExp(`^${lang}`) });

for (const dialect of DIALECTS) {
  test.describe(`content screens on ${dialect}`, () => {
    // Each test is a whole scenario (create, edit per language, public page, delete): longer than one page.
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let image = '';
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Admin', ADMIN);
      await createAccount(s.db, 'Éditeur', EDITOR);
      image = (await s.db.selectFrom('projects').select('image').executeTakeFirstOrThrow()).image;
    });

    test('an Éditeur adds a project (required fields first), edits it in each language, sees it public, deletes it', async ({ page }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/actions`);
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Ajouter un projet' }).click();
      await expect(page.getByLabel('Statut')).toHaveValue('Planifié');
      await expect(page.getByLabel('Date *')).not.toHaveValue('');
      await page.getByLabel('Date *').fill('');
      await page.getByRole('button', { name: 'Ajouter le projet' }).click();
      await expect(page.getByLabel('Image *')).toHaveAccessibleDescription(/L'image est obligatoire\./);
      await expect(page.getByLabel('Date *')).toHaveAccessibleDescription('La date est obligatoire.');
      await expect(page.getByLabel('Lieu *')).toHaveAccessibleDescription('Le lieu est obligatoire.');
      await expect(page.getByLabel('Titre * (FR)')).toHaveAccessibleDescription('Le titre est obligatoire en français.');
      await expect(tab(page, 'EN')).toContainText('(erreur)');
      await expect(tab(page, 'ES')).toContainText('(erreur)');
      await expectAccessible(page);

      await page.getByLabel('Image *').fill(image);
      await page.getByLabel('Date *').fill('2026-03-14');
      await page.getByLabel('Lieu *').fill('Thiès, Sénégal');
      await page.getByLabel('Titre * (FR)').fill('Un puits à Thiès');
      await typeRich(page, 'Description (FR)', 'Un puits ', 'profond');
      // The server checks too: with English and Spanish titles missing nothing is saved, nothing typed is lost.
      await page.evaluate(() => document.querySelector('form')!.setAttribute('novalidate', ''));
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill('A well in Thiès');
      await tab(page, 'ES').click();
      await page.getByLabel('Titre * (ES)').fill('Un pozo en Thiès');
      await tab(page, 'EN').click();
      await typeRich(page, 'Description (EN)', 'A deep well');
      await page.getByRole('button', { name: 'Ajouter le projet' }).click();
      await expect(toast(page)).toContainText('Projet ajouté !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/actions`);
      const row = page.getByTestId('project-row').filter({ hasText: 'Un puits à Thiès' });
      await expect(row).toContainText('Planifié');

      await page.goto(`${server.baseURL}/en/nos-actions`);
      const card = page.locator('article, li').filter({ has: page.getByRole('heading', { name: 'A well in Thiès' }) }).first();
      await expect(card).toBeVisible();
      await page.goto(`${server.baseURL}/nos-actions`);
      await expect(page.getByRole('heading', { name: 'Un puits à Thiès' })).toBeVisible();
      await expect(page.locator('[data-description] strong', { hasText: 'profond' })).toHaveCount(1);

      await page.goto(`${server.baseURL}/admin/actions`);
      await row.getByRole('link', { name: /Modifier/ }).click();
      await tab(page, 'ES').click();
      await page.getByLabel('Titre * (ES)').fill('Un pozo profundo en Thiès');
      await page.getByLabel('Statut').selectOption('En cours');
      // The project is on the site: the change is a draft until "Publier" (ADR 015).
      await page.getByRole('button', { name: 'Publier' }).click();
      await expectPublishedToast(page, 'Projet modifié !');
      await expect(row).toContainText('En cours');
      await page.goto(`${server.baseURL}/es/nos-actions`);
      await expect(page.getByRole('heading', { name: 'Un pozo profundo en Thiès' })).toBeVisible();

      await page.goto(`${server.baseURL}/admin/actions`);
      await row.getByRole('button', { name: /Supprimer/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Êtes-vous sûr ?' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page)).toContainText('Projet supprimé !');
      await expect(row).toHaveCount(0);
      await page.goto(`${server.baseURL}/nos-actions`);
      await expect(page.getByRole('heading', { name: 'Un puits à Thiès' })).toHaveCount(0);
    });

    test('an Éditeur writes a post as a draft, publishes it from the list, edits it, deletes it', async ({ page }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/blog/new`);
      await expect(page.getByLabel('Auteur *')).toHaveValue('Admin THV');
      await expect(page.getByLabel('Date *')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
      await page.getByLabel('Auteur *').fill('');
      await page.getByRole('button', { name: "Ajouter l'article" }).click();
      await expect(page.getByLabel('Image de couverture *')).toHaveAccessibleDescription(/L'image de couverture est obligatoire\./);
      await expect(page.getByLabel('Auteur *')).toHaveAccessibleDescription("L'auteur est obligatoire.");
      await expect(page.getByLabel('Catégorie * (FR)')).toHaveAccessibleDescription('La catégorie est obligatoire en français.');
      await expect(page.getByLabel('Extrait * (FR)')).toHaveAccessibleDescription("L'extrait est obligatoire en français.");
      await expectAccessible(page);

      await page.getByLabel('Image de couverture *').fill(image);
      await page.getByLabel('Auteur *').fill('Awa Ndiaye');
      for (const [lang, words] of [
        ['FR', { c: 'Santé', t: 'Nouvelle clinique', e: 'Une clinique ouvre.', b: 'Elle soigne ' }],
        ['EN', { c: 'Health', t: 'New clinic', e: 'A clinic opens.', b: 'It treats ' }],
        ['ES', { c: 'Salud', t: 'Nueva clínica', e: 'Abre una clínica.', b: 'Atiende ' }],
      ] as const) {
        await tab(page, lang).click();
        await page.getByLabel(`Catégorie * (${lang})`).fill(words.c);
        await page.getByLabel(`Titre * (${lang})`).fill(words.t);
        await page.getByLabel(`Extrait * (${lang})`).fill(words.e);
        await typeRich(page, `Contenu (${lang})`, words.b, 'tout le monde');
      }
      await page.getByRole('button', { name: "Ajouter l'article" }).click();
      await expect(toast(page)).toContainText('Article ajouté !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/blog`);
      const row = page.getByTestId('post-row').filter({ hasText: 'Nouvelle clinique' });
      const publish = row.getByRole('switch', { name: 'Publié : Nouvelle clinique' });
      await expect(publish).toHaveAttribute('aria-checked', 'false');
      await expectAccessible(page);

      await page.goto(`${server.baseURL}/blog`);
      await expect(page.getByText('Nouvelle clinique')).toHaveCount(0);

      await page.goto(`${server.baseURL}/admin/blog`);
      await publish.click();
      await expect(toast(page)).toContainText('Statut modifié');
      await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
      await page.goto(`${server.baseURL}/en/blog`);
      await page.getByRole('link', { name: /New clinic/ }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'New clinic' })).toBeVisible();
      await expect(page.locator('.prose-content strong', { hasText: 'tout le monde' })).toBeVisible();
      // The post's address in French (the English one is `/en` before it).
      const postUrl = new URL(page.url()).pathname.replace(/^\/en\//, '/');
      expect(new URL(page.url()).pathname).toBe(`/en${postUrl}`);

      await page.goto(`${server.baseURL}/admin/blog`);
      await row.getByRole('link', { name: /Modifier/ }).click();
      await tab(page, 'EN').click();
      await page.getByLabel('Titre * (EN)').fill('Our new clinic');
      // A published post is changed by "Publier" (ADR 015; "Enregistrer le brouillon" keeps it off the site).
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Article modifié !');
      await page.goto(`${server.baseURL}/en${postUrl}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Our new clinic' })).toBeVisible();
      await page.goto(`${server.baseURL}/es${postUrl}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Nueva clínica' })).toBeVisible();

      await page.goto(`${server.baseURL}/admin/blog`);
      await row.getByRole('button', { name: /Supprimer/ }).click();
      await page.getByRole('dialog', { name: 'Êtes-vous sûr ?' }).getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page)).toContainText('Article supprimé !');
      await expect(row).toHaveCount(0);
      expect((await page.goto(`${server.baseURL}${postUrl}`))!.status()).toBe(404);
    });

    test('an Éditeur manages partners: required fields, http(s) website, public page, edit, delete', async ({ page }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/partners`);
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Ajouter un partenaire' }).click();
      await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
      await expect(page.getByLabel('Nom *')).toHaveAccessibleDescription('Le nom est obligatoire.');
      await expect(page.getByLabel('Logo *')).toHaveAccessibleDescription(/Le logo est obligatoire\./);
      await expect(page.getByLabel('Site web *')).toHaveAccessibleDescription(/Le site web est obligatoire\./);
      await page.getByLabel('Nom *').fill('Eau Vive');
      await page.getByLabel('Logo *').fill(image);
      await page.getByLabel('Site web *').fill('javascript:alert(1)');
      await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
      await expect(page.getByLabel('Site web *')).toHaveAccessibleDescription(/Saisissez une adresse commençant par http:\/\/ ou https:\/\/\./);
      await expect(page.getByLabel('Nom *')).toHaveValue('Eau Vive');
      await expectAccessible(page);
      await page.getByLabel('Site web *').fill('https://eau-vive.example');
      await page.getByRole('button', { name: 'Ajouter le partenaire' }).click();
      await expect(toast(page)).toContainText('Partenaire ajouté !');
      await page.goto(`${server.baseURL}/partenaires`);
      await expect(page.locator('a[href="https://eau-vive.example"]')).toHaveAttribute('target', '_blank');

      await page.goto(`${server.baseURL}/admin/partners`);
      const row = page.getByTestId('partner-row').filter({ hasText: 'Eau Vive' });
      await row.getByRole('link', { name: /Modifier/ }).click();
      await page.getByLabel('Nom *').fill('Eau Vive International');
      // A partner on the site is changed by "Publier" (ADR 015; "Enregistrer le brouillon" keeps it off the site).
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Partenaire modifié !');
      await page.goto(`${server.baseURL}/partenaires`);
      await expect(page.getByText('Eau Vive International')).toBeVisible();
      await page.goto(`${server.baseURL}/admin/partners`);
      await page.getByTestId('partner-row').filter({ hasText: 'Eau Vive International' }).getByRole('button', { name: /Supprimer/ }).click();
      await page.getByRole('dialog', { name: 'Êtes-vous sûr ?' }).getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page)).toContainText('Partenaire supprimé !');
      await page.goto(`${server.baseURL}/partenaires`);
      await expect(page.locator('a[href="https://eau-vive.example"]')).toHaveCount(0);
    });

    test('an Éditeur edits a page in the three languages; unknown pages say so', async ({ page }) => {
      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/pages`);
      await expectAccessible(page);
      for (const path of ['/', '/a-propos', '/missions', '/contact', '/confidentialite', '/mentions-legales']) {
        await expect(page.getByTestId('page-row').filter({ has: page.getByRole('link', { name: new RegExp(`^${path.replace('/', '\\/')} `) }) })).toHaveCount(1);
      }
      await page.goto(`${server.baseURL}/admin/pages/about`);
      await expect(page).toHaveURL(`${server.baseURL}/admin/pages/edit/about`);
      await expect(page.getByRole('heading', { name: 'Modifier : À propos' })).toBeVisible();
      await expect(page.getByLabel('Photo du fondateur')).not.toHaveValue('');
      await expectAccessible(page);
      await page.getByLabel('Titre (FR)').fill('Notre histoire');
      await typeRich(page, 'Contenu (FR)', 'Fondée en 2020 ', 'à Dakar');
      await tab(page, 'EN').click();
      await page.getByLabel('Titre (EN)').fill('Our story');
      await tab(page, 'ES').click();
      await page.getByLabel('Titre (ES)').fill('Nuestra historia');
      // Pages are always on the site: what is typed goes public with "Publier" (ADR 015).
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Contenu sauvegardé !');
      await expect(page).toHaveURL(`${server.baseURL}/admin/pages`);
      for (const [lng, h1] of [['fr', 'Notre histoire'], ['en', 'Our story'], ['es', 'Nuestra historia']]) {
        await page.goto(`${server.baseURL}${sitePath(lng as Lang, '/a-propos')}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
      }
      await page.goto(`${server.baseURL}/a-propos`);
      await expect(page.locator('.prose-content strong', { hasText: 'à Dakar' })).toBeVisible();

      const res = await page.goto(`${server.baseURL}/admin/pages/edit/inconnue`);
      expect(res!.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page Inconnue' })).toBeVisible();
      await expect(page.getByText('Page non trouvée')).toBeVisible();
      await expect(page.getByRole('textbox')).toHaveCount(0);
    });

    test('site settings are for Admins: checked fields, saved, shown on the public site', async ({ page, browser }) => {
      const editorContext = await browser.newContext();
      const editorPage = await editorContext.newPage();
      await signIn(editorPage, server.baseURL, EDITOR);
      await expect(editorPage.getByRole('link', { name: 'Paramètres' })).toHaveCount(0);
      expect((await editorPage.goto(`${server.baseURL}/admin/settings`))!.status()).toBe(403);
      await editorContext.close();

      await signIn(page, server.baseURL, ADMIN);
      await page.goto(`${server.baseURL}/admin/settings`);
      await expectAccessible(page);
      await page.getByLabel('Numéro WhatsApp').fill('+33 6 12');
      await page.getByLabel('Facebook').fill('facebook.com/thv');
      await page.getByLabel('Email de contact').fill('pas un email');
      await page.getByRole('button', { name: 'Sauvegarder' }).click();
      await expect(page.getByLabel('Numéro WhatsApp')).toHaveAccessibleDescription(/Chiffres uniquement/);
      await expect(page.getByLabel('Facebook')).toHaveAccessibleDescription(/http:\/\/ ou https:\/\//);
      await expect(page.getByLabel('Email de contact')).toHaveAccessibleDescription(/L'email n'est pas valide\./);
      await expectAccessible(page);
      await page.getByLabel('Numéro WhatsApp').fill('33612345678');
      await page.getByLabel('Facebook').fill('https://facebook.com/thv');
      await page.getByLabel('Email de contact').fill('dons@fondation.example');
      await page.getByLabel('Téléphone').fill('+221 77 123 45 67');
      await page.getByRole('button', { name: 'Sauvegarder' }).click();
      await expect(toast(page)).toContainText('Paramètres sauvegardés !');
      await page.goto(`${server.baseURL}/contact`);
      await expect(page.locator('#main').getByRole('link', { name: '+221 77 123 45 67' })).toBeVisible();
      await expect(page.locator('a[href="https://wa.me/33612345678"]').first()).toBeAttached();
    });

    test('a contact message is mailed to the contact email, counted unread, read in full, deleted', async ({ page }) => {
      await page.goto(`${server.baseURL}/contact`);
      for (const [field, value] of Object.entries({ firstName: 'Fatou', lastName: 'Sow', email: 'fatou@example.org', message: 'Bonjour,\nje voudrais aider.' })) await page.locator(`#${field}`).fill(value);
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await expect(page.getByTestId('contact-sent')).toBeVisible();
      // The site's contact email (the seeded one, or what the settings test saved).
      const to = JSON.parse((await server.db.selectFrom('settings').select('value').where('key', '=', 'site').executeTakeFirstOrThrow()).value).contactEmail as string;
      expect(to).toMatch(/@/);
      const mail = await server.db.selectFrom('mail_outbox').selectAll().where('to', '=', to).where('subject', 'like', '%Fatou Sow%').executeTakeFirstOrThrow();
      expect(mail.subject).toContain('Fatou Sow');
      expect(mail.text).toContain('je voudrais aider.');

      await signIn(page, server.baseURL, EDITOR);
      await expect(page.getByTestId('unread-messages')).toContainText('1 message non lu.');
      await page.getByRole('link', { name: 'Voir les messages' }).click();
      const row = page.getByTestId('message-row').filter({ hasText: 'Fatou Sow' });
      await expect(row).toHaveAttribute('data-unread', 'true');
      await expect(row).toContainText('Non lu');
      await expectAccessible(page);
      await row.getByRole('link', { name: /Lire/ }).click();
      await expect(page.getByRole('heading', { name: 'Message de Fatou Sow' })).toBeVisible();
      await expect(page.getByTestId('message-body')).toHaveText('Bonjour,\nje voudrais aider.');
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Retour aux messages' }).click();
      await expect(row).not.toHaveAttribute('data-unread', 'true');
      await page.goto(`${server.baseURL}/admin/dashboard`);
      await expect(page.getByTestId('unread-messages')).toContainText('Aucun message non lu.');
      await page.goto(`${server.baseURL}/admin/messages`);
      await row.getByRole('link', { name: /Lire/ }).click();
      // The list has a 'Supprimer' of its own: be on the message's page first.
      await expect(page.getByRole('heading', { name: 'Message de Fatou Sow' })).toBeVisible();
      await page.getByRole('button', { name: /Supprimer/ }).click();
      await page.getByRole('dialog', { name: 'Êtes-vous sûr ?' }).getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page)).toContainText('Message supprimé');
      await expect(page).toHaveURL(`${server.baseURL}/admin/messages`);
      await expect(row).toHaveCount(0);
    });

    test('a second save of an item changed meanwhile is refused, and what was typed stays', async ({ page, browser }) => {
      const other = await (await browser.newContext()).newPage();
      await signIn(other, server.baseURL, EDITOR);
      await signIn(page, server.baseURL, ADMIN);
      const id = (await server.db.selectFrom('partners').select('id').orderBy('position').executeTakeFirstOrThrow()).id;
      await page.goto(`${server.baseURL}/admin/partners/${id}`);
      await other.goto(`${server.baseURL}/admin/partners/${id}`);
      await other.getByLabel('Nom *').fill('Nom choisi par Éric');
      await other.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(other, 'Partenaire modifié !');
      await page.getByLabel('Nom *').fill('Nom choisi par Alice');
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expect(page.getByRole('alert')).toContainText("modifié par quelqu'un d'autre");
      await expect(page.getByLabel('Nom *')).toHaveValue('Nom choisi par Alice');
      expect((await server.db.selectFrom('partners').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name).toBe('Nom choisi par Éric');
      await other.context().close();
    });

    test('rich text with XSS payloads, saved through the form, renders harmless on the public page', async ({ page }) => {
      await signIn(page, server.baseURL, ADMIN);
      let dialogs = 0;
      page.on('dialog', (d) => {
        dialogs++;
        void d.dismiss();
      });
      const payload =
        '<p>Sûr <strong>gras</strong> <a href="https://ok.example">ok</a></p><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">js</a><svg onload=alert(1)></svg><p style="position:fixed" onclick=alert(1)>x</p><iframe src="data:text/html,<script>alert(1)</script>"></iframe>';
      const res = await page.request.post(`${server.baseURL}/admin/actions/new`, {
        headers: { Origin: server.baseURL },
        form: { image, date: '2026-05-01', location: 'Test', status: 'Planifié', active: 'on', 'fr.title': 'Projet XSS', 'en.title': 'XSS', 'es.title': 'XSS', 'fr.description': payload, 'en.description': '', 'es.description': '' },
      });
      expect(res.status()).toBe(200);
      const stored = (await server.db.selectFrom('projects').select('translations').where('location', '=', 'Test').executeTakeFirstOrThrow()).translations;
      expect(stored).not.toMatch(/<script|onerror|onload|onclick|javascript:|<iframe|<svg|<img|style=/i);
      await page.goto(`${server.baseURL}/nos-actions`);
      const description = page.locator('[data-description]').filter({ hasText: 'Sûr' });
      await expect(description.locator('strong')).toHaveText('gras');
      await expect(description.locator('a[href="https://ok.example"]')).toHaveAttribute('rel', 'noopener noreferrer');
      expect(await description.evaluate((el) => [...el.querySelectorAll('*')].flatMap((n) => [...n.attributes].map((a) => a.name)).filter((a) => !['href', 'target', 'rel', 'class'].includes(a)))).toEqual([]);
      expect(await description.locator('script, img, svg, iframe').count()).toBe(0);
      await description.hover();
      expect(dialogs).toBe(0);
    });
  });
}
