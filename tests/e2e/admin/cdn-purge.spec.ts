import { expect, test } from '@playwright/test';
import { startPurgeRecorder } from '../../support/purge-recorder';
import { expectPublishedToast } from './preview';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';

const EDITOR = 'eric@example.org';

/**
 * Behind a CDN (ADR 025), done when: a public page carries its keys in the tag header, an editor
 * publishes a change to it, and the CDN's purge API (a local server, set up as Cloudflare's) is
 * asked to drop that page's key, with the token, which the server's log never shows.
 */
for (const dialect of DIALECTS) {
  test.describe(`a CDN in front of the site, on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let cdn: Awaited<ReturnType<typeof startPurgeRecorder>>;
    // Declared before the server's own hook: the recorder's address is in the server's environment.
    test.beforeAll(async () => {
      cdn = await startPurgeRecorder();
    });
    test.afterAll(() => cdn.close());
    const server = serverForSuite(
      dialect,
      () => ({
        CACHE_TAG_HEADER: 'Cache-Tag',
        CACHE_PURGE_URL: `${cdn.origin}/client/v4/zones/ZONE/purge_cache`,
        CACHE_PURGE_HEADERS: 'Authorization: Bearer e2e-cdn-token',
        CACHE_PURGE_BODY: '{"tags":{keys}}',
      }),
      async (s) => {
        await createAccount(s.db, 'Éditeur', EDITOR);
      },
    );

    test('the about page carries its key; publishing it purges that key', async ({ page }) => {
      const about = await fetch(`${server.baseURL}/a-propos`);
      expect(about.headers.get('cache-tag')).toBe('site,page:/a-propos');
      // Served again from the cache, with the same keys.
      const again = await fetch(`${server.baseURL}/a-propos`);
      expect(again.headers.get('x-cache')).toBe('HIT');
      expect(again.headers.get('cache-tag')).toBe('site,page:/a-propos');
      expect((await fetch(`${server.baseURL}/campagnes`)).headers.get('cache-tag')).toBe('site,page:/campagnes,campaigns');
      const key = about.headers.get('cache-tag')!.split(',')[1];

      await signIn(page, server.baseURL, EDITOR);
      await page.goto(`${server.baseURL}/admin/pages/edit/about`);
      await page.getByLabel('Titre (FR)').fill('À propos de la fondation');
      await page.getByRole('button', { name: 'Publier', exact: true }).click();
      await expectPublishedToast(page, 'Contenu sauvegardé !');
      await expect.poll(() => cdn.tags(), { timeout: 15_000 }).toContainEqual([key]);
      const purge = cdn.received.find((r) => r.body === `{"tags":["${key}"]}`)!;
      expect(purge).toMatchObject({ method: 'POST', url: '/client/v4/zones/ZONE/purge_cache' });
      expect(purge.headers.authorization).toBe('Bearer e2e-cdn-token');
      expect(server.log()).not.toContain('e2e-cdn-token');
    });
  });
}
