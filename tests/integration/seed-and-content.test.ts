import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '~db/index';
import { seedDefaults } from '~db/seed';
import { getPublishedPost, listPublishedPosts } from '~/domain/blog/posts.server';
import { getLocalizedPage } from '~/domain/content/pages.server';
import { MANAGED_PAGES } from '~/domain/content/pages';
import { resolveImages } from '~/domain/media/images.server';
import { listPartners } from '~/domain/partners/partners.server';
import { listActiveProjects } from '~/domain/projects/projects.server';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import { diskStorage } from '~/lib/storage.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

describeEachDialect('default content on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    expect(await seedDefaults(t.db, diskStorage(path.join(t.dataDir, 'media')))).toBe(true);
  });
  afterAll(() => t.destroy());

  it('seeds every managed page with every text field in the three languages', async () => {
    for (const page of MANAGED_PAGES) {
      for (const lang of ['fr', 'en', 'es'] as const) {
        const { fields, images } = await getLocalizedPage(t.db, page.id as never, lang);
        for (const field of page.fields) {
          if (field.kind === 'image') expect(images[field.id], `${page.id}.${field.id}`).toMatch(/^\/media\//);
          else if (!(page.id === 'contact' && field.id === 'address')) expect(fields[field.id], `${page.id}.${field.id}.${lang}`).not.toBe('');
        }
      }
    }
    expect((await getLocalizedPage(t.db, 'home', 'es')).fields.heroTitle).toBe('Actuar juntos por un futuro digno');
  });

  it('stores seed images as files with resized WebP variants', async () => {
    const { images } = await getLocalizedPage(t.db, 'home', 'fr');
    const resolved = await resolveImages(t.db, [images.heroImage]);
    const info = resolved.get(images.heroImage)!;
    expect(info.width).toBe(1600);
    expect(info.height).toBe(900);
    expect(info.srcSet?.split(', ').length).toBeGreaterThanOrEqual(4);
    const key = images.heroImage.replace('/media/', '');
    expect(fs.existsSync(path.join(t.dataDir, 'media', key))).toBe(true);
    const variant = info.srcSet!.split(', ')[0].split(' ')[0].replace('/media/', '');
    expect(fs.readFileSync(path.join(t.dataDir, 'media', variant)).subarray(8, 12).toString()).toBe('WEBP');
  });

  it('shows only active projects and published posts', async () => {
    const projects = await listActiveProjects(t.db, 'en');
    expect(projects.map((p) => p.title)).toEqual(['Medical caravan', 'A renovated school']);
    const posts = await listPublishedPosts(t.db, 'fr');
    expect(posts.map((p) => p.id)).toEqual(['1', '2']);
    expect(await getPublishedPost(t.db, '3', 'fr')).toBeUndefined();
    expect((await getPublishedPost(t.db, '1', 'es'))?.title).toBe('Balance de la caravana médica');
    expect(await listPartners(t.db)).toHaveLength(3);
  });

  it('seeds the contact details, a WhatsApp number, one unset social link and no membership form', async () => {
    const s = await getSiteSettings(t.db);
    expect(s.address).toContain('Paris');
    expect(s.contactEmail).toMatch(/@/);
    expect(s.whatsAppNumber).toMatch(/^\d+$/);
    expect(s.twitterUrl).toBe('');
    expect(s.facebookUrl).toMatch(/^https:/);
    expect(s.membershipFormUrl).toBe('');
  });

  it('falls back to French where a language is empty, and sanitizes rich fields on the way out', async () => {
    const row = await t.db.selectFrom('page_content').select('texts').where('page_id', '=', 'about').executeTakeFirstOrThrow();
    const texts = JSON.parse(row.texts);
    texts.en.title = '';
    texts.en.content = '<p onclick="x()">Hi<script>alert(1)</script></p>';
    await t.db.updateTable('page_content').set({ texts: JSON.stringify(texts) }).where('page_id', '=', 'about').execute();
    const page = await getLocalizedPage(t.db, 'about', 'en');
    expect(page.fields.title).toBe('À propos de la fondation');
    expect(page.fields.content).toBe('<p>Hi</p>');
  });

  it('never overwrites or re-creates content on a later start', async () => {
    await t.db.updateTable('page_content').set({ texts: JSON.stringify({ fr: { heroTitle: 'Changé' }, en: {}, es: {} }) }).where('page_id', '=', 'home').execute();
    await t.db.deleteFrom('projects').where('id', '=', '2').execute();
    await migrateToLatest(t.db);
    expect(await seedDefaults(t.db, diskStorage(path.join(t.dataDir, 'media')))).toBe(false);
    expect((await getLocalizedPage(t.db, 'home', 'fr')).fields.heroTitle).toBe('Changé');
    expect((await listActiveProjects(t.db, 'fr')).map((p) => p.id)).toEqual(['1']);
  });
});
