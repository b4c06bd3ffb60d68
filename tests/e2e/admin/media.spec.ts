import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import S3rver from 's3rver';
import sharp from 'sharp';
import { expectAccessible } from '../support';
import { makePdf, makePng, HTML } from '../../support/media-files';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

/** A photo as a camera makes it: big enough (~1.5 MB) for its upload to take a moment when throttled. */
const photo = () =>
  sharp({ create: { width: 1500, height: 1000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 92 })
    .toBuffer();

/** Slows uploads down (Chrome DevTools protocol), so that a progress bar can be seen moving. */
async function throttleUploads(page: Page, bytesPerSecond: number | null) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  });
}

const toast = (page: Page) => page.locator('[data-toast-region] li');

for (const dialect of DIALECTS) {
  test.describe(`media library on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    const server = serverForSuite(dialect, undefined, async (s) => {
      await createAccount(s.db, 'Éditeur', 'eric@example.org');
    });
    const rows = (page: Page) => page.getByTestId('media-row');

    test('uploads several files by the picker, each with its progress bar, and refuses a forged one', async ({ page }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      await page.goto(`${server.baseURL}/admin/media`);
      await expect(page.getByRole('heading', { level: 1, name: 'Médiathèque' })).toBeVisible();
      await expectAccessible(page);
      const before = await rows(page).count();

      await throttleUploads(page, 400_000);
      await page.getByLabel('Choisir des fichiers').setInputFiles([
        { name: 'photo-terrain.jpg', mimeType: 'image/jpeg', buffer: await photo() },
        { name: 'adhesion.pdf', mimeType: 'application/pdf', buffer: makePdf() },
        { name: 'page.png', mimeType: 'image/png', buffer: HTML },
      ]);
      const items = page.getByTestId('upload-item');
      await expect(items).toHaveCount(3);
      const photoBar = page.getByRole('progressbar', { name: 'Progression de photo-terrain.jpg' });
      // The bar moves while the file is sent: seen part-way, then full.
      await expect.poll(async () => Number(await photoBar.getAttribute('value')), { timeout: 15_000, intervals: [50] }).toBeGreaterThan(0.1);
      expect(Number(await photoBar.getAttribute('value'))).toBeLessThan(1);
      await expect(items.filter({ hasText: 'photo-terrain.jpg' })).toContainText('Ajouté', { timeout: 20_000 });
      await expect(photoBar).toHaveAttribute('value', '1');
      await expect(items.filter({ hasText: 'adhesion.pdf' })).toContainText('Ajouté');
      await expect(items.filter({ hasText: 'page.png' })).toContainText('Fichier refusé : page.png n’est ni une image (JPEG, PNG, WebP, GIF) ni un PDF.');
      await expect(toast(page)).toContainText('Téléversement réussi !');
      await expect(toast(page)).toContainText('2 fichiers ajoutés.');
      await throttleUploads(page, null);

      // Newest first: the PDF went up after the photo.
      await expect(rows(page)).toHaveCount(before + 2);
      await expect(rows(page).nth(0)).toContainText('adhesion.pdf');
      await expect(rows(page).nth(0)).toContainText('Document PDF');
      await expect(rows(page).nth(1)).toContainText('photo-terrain.jpg');
      await expect(rows(page).nth(1)).toContainText('Image JPEG');
      await expect(rows(page).nth(1)).toContainText(/\d+(,\d)? (Ko|Mo)/);
      await expect(rows(page).nth(1).locator('time')).toHaveText(/\d{2}\/\d{2}\/\d{4}/);
      const thumb = rows(page).nth(1).locator('img');
      await expect(thumb).toHaveAttribute('src', /-w320\.webp$/);
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
      await expectAccessible(page);

      const stored = await server.db.selectFrom('media').select(['name', 'storage_key', 'mime']).where('name', 'in', ['photo-terrain.jpg', 'adhesion.pdf', 'page.png']).execute();
      expect(stored.map((r) => r.mime).sort()).toEqual(['application/pdf', 'image/jpeg']);
      for (const r of stored) expect(r.storage_key).not.toContain(r.name.replace(/\..*$/, ''));
    });

    test('uploads by drag and drop', async ({ page }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      await page.goto(`${server.baseURL}/admin/media`);
      const png = (await makePng(300, 200)).toString('base64');
      const dataTransfer = await page.evaluateHandle((b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'glisse.png', { type: 'image/png' }));
        return dt;
      }, png);
      await page.getByTestId('drop-zone').dispatchEvent('dragover', { dataTransfer });
      await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
      await expect(toast(page)).toContainText('Téléversement réussi !');
      await expect(toast(page)).toContainText('1 fichier ajouté.');
      await expect(rows(page).nth(0)).toContainText('glisse.png');
      await expect(rows(page).nth(0)).toContainText('Image PNG');
    });

    test('copies a file’s URL and says so for 2 seconds', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseURL });
      await signIn(page, server.baseURL, 'eric@example.org');
      await page.goto(`${server.baseURL}/admin/media`);
      const row = rows(page).filter({ hasText: 'photo-terrain.jpg' });
      const button = row.getByRole('button', { name: 'Copier l’URL de photo-terrain.jpg' });
      // The page's clock is ours, and stands still: the 2 seconds are counted, not waited for.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await button.click();
      await expect(row.getByRole('button', { name: 'URL copiée !' })).toBeVisible();
      const key = (await server.db.selectFrom('media').select('storage_key').where('name', '=', 'photo-terrain.jpg').executeTakeFirstOrThrow()).storage_key;
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.baseURL}/media/${key}`);
      await page.clock.runFor(1999);
      await expect(row.getByRole('button', { name: 'URL copiée !' })).toBeVisible();
      await page.clock.runFor(1);
      await expect(button).toBeVisible();
      await expect(row.getByRole('button', { name: 'URL copiée !' })).toHaveCount(0);
    });

    test('an image used by a project shows on the public page with its resized variants; files are served well', async ({ page, browser, request }) => {
      const media = await server.db.selectFrom('media').selectAll().where('name', '=', 'photo-terrain.jpg').executeTakeFirstOrThrow();
      const project = await server.db.selectFrom('projects').select(['id', 'translations']).where('active', '=', 1).orderBy('id').executeTakeFirstOrThrow();
      await server.db.updateTable('projects').set({ image: `/media/${media.storage_key}` }).where('id', '=', project.id).execute();
      const stem = media.storage_key.replace(/\.jpg$/, '');

      // A phone: a 375-pixel-wide screen at twice the density.
      const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
      const mobile = await phone.newPage();
      await mobile.goto(`${server.baseURL}/nos-actions`);
      const img = mobile.locator(`img[src^="/media/${stem}"]`);
      await expect(img).toHaveCount(1);
      await expect(img).toHaveAttribute('srcset', [320, 640, 960, 1280, 1500].map((w) => `/media/${stem}-w${w}.webp ${w}w`).join(', '));
      await expect(img).toHaveAttribute('width', '1500');
      await expect(img).toHaveAttribute('height', '1000');
      await expect(img).toHaveAttribute('sizes', /.+/);
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(new RegExp(`${stem}-w(320|640|960)\\.webp$`));
      await phone.close();

      const variant = await request.get(`${server.baseURL}/media/${stem}-w640.webp`);
      expect(variant.status()).toBe(200);
      expect(variant.headers()['content-type']).toBe('image/webp');
      expect(variant.headers()['x-content-type-options']).toBe('nosniff');
      expect(variant.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await sharp(await variant.body()).metadata()).width).toBe(640);

      const pdf = await server.db.selectFrom('media').select('storage_key').where('name', '=', 'adhesion.pdf').executeTakeFirstOrThrow();
      const part = await request.get(`${server.baseURL}/media/${pdf.storage_key}`, { headers: { Range: 'bytes=0-7' } });
      expect(part.status()).toBe(206);
      expect(part.headers()['content-type']).toBe('application/pdf');
      expect((await part.body()).toString()).toBe('%PDF-1.4');
      await page.close();
    });

    test('deletes a file after "Êtes-vous sûr ?", warning where it is used', async ({ page, request }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      await page.goto(`${server.baseURL}/admin/media`);
      const row = rows(page).filter({ hasText: 'photo-terrain.jpg' });
      await expect(row).toContainText(/Utilisé par le projet « .+ »/);
      await row.getByRole('button', { name: 'Supprimer photo-terrain.jpg' }).click();
      const dialog = page.getByRole('dialog', { name: 'Êtes-vous sûr ?' });
      await expect(dialog).toContainText('Ce fichier est utilisé');
      await expect(dialog).toContainText(/le projet « .+ »/);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await expect(dialog).toBeHidden();
      await expect(row).toHaveCount(1);

      const key = (await server.db.selectFrom('media').select('storage_key').where('name', '=', 'photo-terrain.jpg').executeTakeFirstOrThrow()).storage_key;
      await row.getByRole('button', { name: 'Supprimer photo-terrain.jpg' }).click();
      await dialog.getByRole('button', { name: 'Supprimer' }).click();
      await expect(toast(page)).toContainText('Fichier supprimé');
      await expect(row).toHaveCount(0);
      expect(await server.db.selectFrom('media').select('id').where('name', '=', 'photo-terrain.jpg').execute()).toEqual([]);
      expect((await request.get(`${server.baseURL}/media/${key}`)).status()).toBe(404);
      expect((await request.get(`${server.baseURL}/media/${key.replace(/\.jpg$/, '-w320.webp')}`)).status()).toBe(404);
    });

    test('without JavaScript: files upload with the form, and deletion asks on its own page', async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${server.baseURL}/admin/login`);
      await page.getByLabel('Email').fill('eric@example.org');
      await page.getByLabel('Mot de passe').fill('un mot de passe solide');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.goto(`${server.baseURL}/admin/media`);
      await page.getByLabel('Choisir des fichiers').setInputFiles([
        { name: 'sans-js.png', mimeType: 'image/png', buffer: await makePng() },
        { name: 'faux.png', mimeType: 'image/png', buffer: HTML },
      ]);
      await page.getByRole('button', { name: 'Téléverser' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Téléversement réussi !' })).toContainText('1 fichier ajouté.');
      await expect(page.getByRole('alert').filter({ hasText: 'Fichier refusé' })).toContainText('faux.png n’est ni une image');
      await expect(rows(page).nth(0)).toContainText('sans-js.png');

      await rows(page).nth(0).getByRole('link', { name: 'Supprimer sans-js.png' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Êtes-vous sûr ?' })).toBeVisible();
      await page.getByRole('button', { name: 'Supprimer' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/admin/media`);
      await expect(page.getByTestId('media-row').filter({ hasText: 'sans-js.png' })).toHaveCount(0);
      await context.close();
    });
  });
}

test.describe('media in S3-compatible storage', () => {
  test.describe.configure({ mode: 'serial' });
  let s3: S3rver | undefined;
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thv-e2e-s3-'));
  let s3Port = 0;
  test.beforeAll(async () => {
    s3Port = 3595 + test.info().parallelIndex;
    s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'site-media' }] });
    await s3.run();
  });
  const server = serverForSuite('sqlite', () => ({
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_BUCKET: 'site-media',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  }), async (s) => {
    await createAccount(s.db, 'Éditeur', 'eric@example.org');
  });
  test.afterAll(async () => {
    await s3?.close();
    fs.rmSync(s3Dir, { recursive: true, force: true });
  });

  test('files go to the bucket, and the app serves them with their type, caching and byte ranges', async ({ page, request }) => {
    await signIn(page, server.baseURL, 'eric@example.org');
    await page.goto(`${server.baseURL}/admin/media`);
    await page.getByLabel('Choisir des fichiers').setInputFiles([
      { name: 'bucket.png', mimeType: 'image/png', buffer: await makePng(700, 400) },
      { name: 'statuts.pdf', mimeType: 'application/pdf', buffer: makePdf() },
    ]);
    await expect(toast(page)).toContainText('2 fichiers ajoutés.');
    const png = await server.db.selectFrom('media').selectAll().where('name', '=', 'bucket.png').executeTakeFirstOrThrow();
    // Not on disk: in the bucket (s3rver keeps objects under its directory, by bucket).
    expect(fs.readdirSync(path.join(s3Dir, 'site-media')).some((f) => f.startsWith(png.storage_key))).toBe(true);
    await expect.poll(() => rows(page).filter({ hasText: 'bucket.png' }).locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);

    const variant = await request.get(`${server.baseURL}/media/${png.storage_key.replace(/\.png$/, '-w640.webp')}`);
    expect(variant.status()).toBe(200);
    expect(variant.headers()['content-type']).toBe('image/webp');
    expect(variant.headers()['x-content-type-options']).toBe('nosniff');
    expect(variant.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const pdf = await server.db.selectFrom('media').select('storage_key').where('name', '=', 'statuts.pdf').executeTakeFirstOrThrow();
    const part = await request.get(`${server.baseURL}/media/${pdf.storage_key}`, { headers: { Range: 'bytes=0-7' } });
    expect(part.status()).toBe(206);
    expect((await part.body()).toString()).toBe('%PDF-1.4');
    expect((await request.get(`${server.baseURL}/media/nothing-here.png`)).status()).toBe(404);

    // The seeded pictures went to the bucket too, and the public pages show them from there.
    await page.goto(`${server.baseURL}/`);
    const hero = page.locator('img[srcset]').first();
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  function rows(page: Page) {
    return page.getByTestId('media-row');
  }
});
