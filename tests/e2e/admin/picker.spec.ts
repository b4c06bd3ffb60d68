import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support';
import { makePdf, makePng } from '../../support/media-files';
import { createAccount, serverForSuite, signIn } from './server';

const ADMIN = 'alice@example.org';
const EDITOR = 'eric@example.org';

test.describe('choosing files from the media library', () => {
  test.describe.configure({ mode: 'serial' });
  const server = serverForSuite('sqlite', undefined, async (s) => {
    await createAccount(s.db, 'Admin', ADMIN);
    await createAccount(s.db, 'Éditeur', EDITOR);
  });

  test('an Éditeur picks a carousel image, uploads one in the picker, and the home page shows it resized', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, server.baseURL, EDITOR);
    await page.goto(`${server.baseURL}/admin/pages/edit/home`);
    const field = page.getByRole('textbox', { name: 'Image du carrousel 2' });
    const open = page.getByRole('button', { name: 'Choisir dans la médiathèque : Image du carrousel 2' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: /Médiathèque/ });
    await expect(dialog.getByRole('listitem').first()).toBeVisible();
    await expectAccessible(page);
    // Escape closes and gives the focus back.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    // A file uploaded in the picker is picked at once.
    await open.click();
    await dialog.getByLabel('Choisir des images').setInputFiles([{ name: 'nouvelle-photo.png', mimeType: 'image/png', buffer: await makePng() }]);
    await expect(dialog).toBeHidden();
    const key = (await server.db.selectFrom('media').select('storage_key').where('name', '=', 'nouvelle-photo.png').executeTakeFirstOrThrow()).storage_key;
    await expect(field).toHaveValue(`/media/${key}`);
    await expect(field).toBeFocused();
    // The page is on the site: the new image goes public with "Publier" (ADR 015).
    await page.getByRole('button', { name: 'Publier', exact: true }).click();
    await expect(page).toHaveURL(`${server.baseURL}/admin/pages`);

    await page.goto(`${server.baseURL}/`);
    const slide = page.locator('[data-slide] img').nth(1);
    await expect(slide).toHaveAttribute('srcset', new RegExp(`${key.replace(/\.png$/, '')}-w\\d+\\.webp`));
    await expect(slide).toHaveAttribute('width', /\d+/);
  });

  test('the membership form field lists PDFs only and refuses an image', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, server.baseURL, ADMIN);
    await page.goto(`${server.baseURL}/admin/settings`);
    await page.getByRole('button', { name: /Choisir dans la médiathèque : Formulaire d.adhésion/ }).click();
    const dialog = page.getByRole('dialog', { name: /Médiathèque/ });
    await dialog.getByLabel('Choisir un PDF').setInputFiles([{ name: 'photo.pdf', mimeType: 'application/pdf', buffer: await makePng() }]);
    await expect(dialog.getByTestId('upload-item')).toContainText('photo.pdf n’est pas un PDF.');
    await dialog.getByLabel('Choisir un PDF').setInputFiles([{ name: 'adhesion.pdf', mimeType: 'application/pdf', buffer: makePdf() }]);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: /Formulaire d.adhésion/ })).toHaveValue(/^\/media\/.+\.pdf$/);
  });
});
