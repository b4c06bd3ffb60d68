import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deleteMedia, listMedia, mediaUsage } from '~/domain/media/library.server';
import { receiveUploads } from '~/domain/media/upload.server';
import { keyFromUrl, MAX_IMAGE_BYTES, type ImageVariant } from '~/domain/media/media';
import { diskStorage, type Storage } from '~/lib/storage.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { HTML, makeJpeg, makePdf, makePng, uploadRequest } from '../support/media-files';

const actor = { id: null, name: 'Test' };

describeEachDialect('media library on %s', (dialect) => {
  let t: TestDb;
  let dir: string;
  let storage: Storage;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());
  beforeEach(async () => {
    await t.db.deleteFrom('media').execute();
    dir = fs.mkdtempSync(path.join(t.dataDir, 'media-'));
    storage = diskStorage(dir);
  });
  const files = () => fs.readdirSync(dir).sort();

  it('stores several files from one streamed request, with generated names and WebP variants', async () => {
    const results = await receiveUploads(
      uploadRequest([
        { name: 'Photo été.jpg', data: await makeJpeg(1500, 1000), type: 'image/jpeg' },
        { name: 'adhésion.pdf', data: makePdf(), type: 'application/pdf' },
      ]),
      t.db,
      storage,
      actor,
    );
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['Photo été.jpg', true],
      ['adhésion.pdf', true],
    ]);
    const rows = await t.db.selectFrom('media').selectAll().orderBy('mime').execute();
    expect(rows.map((r) => [r.name, r.mime])).toEqual([
      ['adhésion.pdf', 'application/pdf'],
      ['Photo été.jpg', 'image/jpeg'],
    ]);
    for (const r of rows) expect(r.storage_key).toMatch(/^[a-z0-9]+-[0-9a-f]{12}\.(jpg|pdf)$/);
    const variants = JSON.parse(rows[1].variants) as ImageVariant[];
    expect(variants.map((v) => v.width)).toEqual([320, 640, 960, 1280, 1500]);
    expect(files()).toEqual([rows[0].storage_key, rows[1].storage_key, ...variants.map((v) => v.key)].sort());
    const audit = await t.db.selectFrom('audit_log').select(['action', 'target']).where('action', '=', 'media.upload').execute();
    expect(audit.map((a) => a.target).sort()).toEqual(['Photo été.jpg', 'adhésion.pdf']);
  });

  it('refuses forged, truncated and oversized files and leaves neither a file nor a row behind', async () => {
    const png = await makePng();
    const results = await receiveUploads(
      uploadRequest([
        { name: 'page.png', data: HTML, type: 'image/png' },
        { name: 'coupee.png', data: png.subarray(0, png.length - 40), type: 'image/png' },
        { name: 'grande.png', data: Buffer.concat([png, Buffer.alloc(MAX_IMAGE_BYTES)]), type: 'image/png' },
      ]),
      t.db,
      storage,
      actor,
    );
    expect(results).toEqual([
      { name: 'page.png', ok: false, title: 'Fichier refusé', message: 'page.png n’est ni une image (JPEG, PNG, WebP, GIF) ni un PDF.' },
      { name: 'coupee.png', ok: false, title: 'Erreur de lecture', message: 'Impossible de lire le fichier coupee.png.' },
      { name: 'grande.png', ok: false, title: 'Fichier trop volumineux', message: 'grande.png dépasse la limite de 10 Mo pour une image.' },
    ]);
    expect(await t.db.selectFrom('media').selectAll().execute()).toEqual([]);
    expect(files()).toEqual([]);
  });

  it('applies the EXIF orientation and removes the EXIF metadata (here the camera) from the original and its variants', async () => {
    const sideways = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#246' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'Appareil', Model: 'Secret' } } })
      .toBuffer();
    expect((await sharp(sideways).metadata()).exif).toBeDefined();
    const [result] = await receiveUploads(uploadRequest([{ name: 'portrait.jpg', data: sideways }]), t.db, storage, actor);
    const row = await t.db.selectFrom('media').selectAll().where('name', '=', 'portrait.jpg').executeTakeFirstOrThrow();
    expect(result.ok).toBe(true);
    expect([row.width, row.height]).toEqual([400, 600]);
    for (const key of [row.storage_key, ...(JSON.parse(row.variants) as ImageVariant[]).map((v) => v.key)]) {
      const meta = await sharp(fs.readFileSync(path.join(dir, key))).metadata();
      expect(meta.exif, key).toBeUndefined();
      expect(meta.orientation ?? 1, key).toBe(1);
      expect(meta.height! > meta.width!, key).toBe(true);
    }
  });

  it('refuses a request declaring more than the limits allow from its headers, without reading its body', async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request('http://localhost/admin/media/televerser', {
      method: 'POST',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(500 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    await expect(receiveUploads(request, t.db, storage, actor)).rejects.toMatchObject({ status: 413, message: expect.stringContaining('Envoi trop volumineux') });
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own first prefetch
    await expect(receiveUploads(new Request('http://localhost/x', { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), t.db, storage, actor)).rejects.toMatchObject({
      status: 400,
      message: 'Aucun fichier reçu.',
    });
  });

  it('a PDF sent to an image field is refused', async () => {
    const [result] = await receiveUploads(uploadRequest([{ name: 'photo.png', data: makePdf(), type: 'image/png' }]), t.db, storage, actor, 'image');
    expect(result).toMatchObject({ ok: false, message: 'photo.png n’est pas une image.' });
  });

  it('when storage fails midway, the files already written are removed and no row is left', async () => {
    let puts = 0;
    const flaky: Storage = {
      ...storage,
      async put(key, data, type) {
        if (++puts === 3) throw new Error('disk full');
        await storage.put(key, data, type);
      },
    };
    const [result] = await receiveUploads(uploadRequest([{ name: 'photo.jpg', data: await makeJpeg(1500, 1000) }]), t.db, flaky, actor);
    expect(result).toMatchObject({ ok: false, title: 'Erreur d’enregistrement' });
    expect(await t.db.selectFrom('media').selectAll().execute()).toEqual([]);
    expect(files()).toEqual([]);
  });

  it('lists newest first, tells where a file is used, and deletes it with its variants', async () => {
    const first = await receiveUploads(uploadRequest([{ name: 'ancienne.jpg', data: await makeJpeg(700, 500) }]), t.db, storage, actor);
    await new Promise((r) => setTimeout(r, 5));
    const second = await receiveUploads(uploadRequest([{ name: 'recente.png', data: await makePng() }]), t.db, storage, actor);
    const [old, recent] = [first[0], second[0]].map((r) => (r.ok ? r.item : undefined)!);
    expect((await listMedia(t.db)).map((i) => i.name)).toEqual(['recente.png', 'ancienne.jpg']);
    expect((await listMedia(t.db, 'pdf')).map((i) => i.name)).toEqual([]);

    const now = new Date().toISOString();
    await t.db
      .insertInto('projects')
      .values({ id: 'p1', image: old.url, date: '2026-01-01', location: 'Lomé', status: 'En cours', active: 1, translations: JSON.stringify({ fr: { title: 'Puits', description: '' } }), version: 1, created_at: now, updated_at: now })
      .execute();
    await t.db.insertInto('settings').values({ key: 'site', value: JSON.stringify({ siteLogoUrl: old.url }), version: 1, updated_at: now }).execute();
    await t.db
      .insertInto('partners')
      .values({ id: 'x', name: 'ONG Amie', logo_url: recent.url, website: '', position: 1, version: 1, created_at: now, updated_at: now })
      .execute();
    const usage = await mediaUsage(t.db, await listMedia(t.db));
    expect(usage[old.id]).toEqual(['le projet « Puits »', 'les paramètres du site']);
    expect(usage[recent.id]).toEqual(['le partenaire « ONG Amie »']);

    const before = files().length;
    const deleted = await deleteMedia(t.db, storage, old.id);
    expect(deleted?.name).toBe('ancienne.jpg');
    expect(files().some((f) => f.startsWith(keyFromUrl(old.url)!.replace(/\.jpg$/, '')))).toBe(false);
    expect(files().length).toBeLessThan(before);
    expect((await listMedia(t.db)).map((i) => i.name)).toEqual(['recente.png']);
    expect(await deleteMedia(t.db, storage, old.id)).toBeUndefined();
  });

  it('tells that a file is used by a campaign, or only by a draft (it would be missing once the draft is published)', async () => {
    const uploaded = await receiveUploads(
      uploadRequest([
        { name: 'puits.png', data: await makePng() },
        { name: 'brouillon.png', data: await makePng() },
        { name: 'accueil.png', data: await makePng() },
      ]),
      t.db,
      storage,
      actor,
    );
    const [cover, drafted, pageImage] = uploaded.map((r) => (r.ok ? r.item : undefined)!);
    const now = new Date().toISOString();
    const fr = (title: string) => JSON.stringify({ fr: { title, summary: '', story: '' } });
    await t.db
      .insertInto('campaigns')
      .values({ id: 'c1', slug: 'un-puits', status: 'active', image: cover.url, goal_cents: null, starts_on: null, ends_on: null, project_id: null, translations: fr('Un puits à Kaya'), amounts: '[]', version: 1, created_at: now, updated_at: now })
      .execute();
    const draft = (type: string, id: string, snapshot: object) => ({ entity_type: type, entity_id: id, snapshot: JSON.stringify(snapshot), base_version: 1, publish_at: null, saved_by_id: null, saved_by_name: 'Test', saved_at: now });
    await t.db
      .insertInto('drafts')
      .values([
        draft('post', 'b1', { image: drafted.url, translations: { fr: { title: 'Rentrée scolaire' } } }),
        draft('page', 'home', { images: { hero: pageImage.url }, translations: {} }),
      ])
      .execute();

    const usage = await mediaUsage(t.db, await listMedia(t.db));
    expect(usage[cover.id]).toEqual(['la campagne « Un puits à Kaya »']);
    expect(usage[drafted.id]).toEqual(['le brouillon de l’article « Rentrée scolaire »']);
    expect(usage[pageImage.id]).toEqual(['le brouillon de la page Accueil']);
  });
});
