import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from '~db/index';
import { blogFeed } from '~/domain/blog/feed.server';
import { postEditable } from '~/domain/blog/editable.server';
import { createPost, deletePost, getPost, getPublishedPost, listPublishedPostIds, listPublishedPosts, postSnapshot, updatePost, type PostInput } from '~/domain/blog/posts.server';
import { previewPost } from '~/domain/blog/preview.server';
import { pageEditable } from '~/domain/content/editable.server';
import { findManagedPage } from '~/domain/content/pages';
import { getEditablePage, getLocalizedPage, savePageContent } from '~/domain/content/pages.server';
import { partnerEditable } from '~/domain/partners/editable.server';
import { createPartner, getPartner, listPartners, updatePartner } from '~/domain/partners/partners.server';
import { projectEditable } from '~/domain/projects/editable.server';
import { createProject, getProject, listActiveProjects, projectSnapshot, updateProject } from '~/domain/projects/projects.server';
import { autosave, clearCopy, getCopy, openForEditing } from '~/domain/revisions/autosave.server';
import { compareSnapshots, utcToParisLocal } from '~/domain/revisions/editorial';
import { getRevision, listRevisions, recordRevision, revisionSnapshots } from '~/domain/revisions/revisions.server';
import { discardDraft, getDraft, publish, publishDue, restoreRevision, saveDraft, scheduledFor } from '~/domain/revisions/workflow.server';
import path from 'node:path';
import { createBackup, restoreBackup } from '~/lib/backup.server';
import { diskStorage } from '~/lib/storage.server';
import { CONFLICT } from '~/domain/content/forms';
import { runScheduledPublishing } from '~/domain/revisions/schedule.server';
import { runtime } from '~/lib/runtime.server';
import { action as editAction, loader as editLoader } from '~/routes/admin/content/post-edit';
import { action as autosaveAction } from '~/routes/admin/editorial/autosave';
import { loader as feedLoader } from '~/routes/resources/blog-feed';
import { loader as sitemapLoader } from '~/routes/resources/sitemap';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const marie = { id: 'u-marie', name: 'Marie Curie' };
const paul = { id: 'u-paul', name: 'Paul Éluard' };
const post = (title: string, over: Partial<PostInput> = {}): PostInput => ({
  image: '/media/c.webp',
  author: 'Admin THV',
  date: '2026-02-01',
  status: 'Publié',
  translations: {
    fr: { category: 'Santé', title, excerpt: 'Résumé', content: '<p>Corps</p>' },
    en: { category: 'Health', title: `${title} EN`, excerpt: 'Summary', content: '<p>Body</p>' },
    es: { category: 'Salud', title: `${title} ES`, excerpt: 'Resumen', content: '<p>Cuerpo</p>' },
  },
  ...over,
});
const withTitle = (p: PostInput, fr: string, en: string): PostInput => ({
  ...p,
  translations: { ...p.translations, fr: { ...p.translations.fr, title: fr }, en: { ...p.translations.en, title: en } },
});
const editable = (type: string) => (type === postEditable.type ? postEditable : undefined);

describeEachDialect('editorial workflow on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  /** Everything a visitor can reach: the blog list, the article page, the sitemap's ids, the feed. */
  async function publicView(id: string) {
    const page = await getPublishedPost(t.db, id, 'en');
    const list = (await listPublishedPosts(t.db, 'en')).find((p) => p.id === id);
    const inSitemap = (await listPublishedPostIds(t.db)).some((p) => p.id === id);
    const feed = await blogFeed(t.db, 'en', 'https://thv.example', { site: 'THV', blog: 'Blog' });
    return { title: page?.title, listTitle: list?.title, inSitemap, feed };
  }

  it('a draft of a published post never reaches visitors until "Publier"', async () => {
    const p = await createPost(t.db, marie, post('Vaccination à Kaolack'));
    const draft = withTitle(post('Vaccination à Kaolack'), 'Brouillon secret', 'Secret draft');
    expect(await saveDraft(t.db, postEditable, p.id, { snapshot: { ...draft }, version: p.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });

    const before = await publicView(p.id);
    expect(before).toMatchObject({ title: 'Vaccination à Kaolack EN', listTitle: 'Vaccination à Kaolack EN', inSitemap: true });
    expect(before.feed).toContain('<title>Vaccination à Kaolack EN</title>');
    expect(before.feed).not.toContain('Secret draft');
    // The live row is untouched: same version, same text.
    expect((await getPost(t.db, p.id))?.version).toBe(p.version);
    // The editor's preview shows the draft.
    expect((await previewPost(t.db, p.id, 'en'))?.title).toBe('Secret draft');

    const live = (await getPost(t.db, p.id))!;
    const { savedAt } = (await getDraft(t.db, { type: 'post', id: p.id }))!;
    expect(await publish(t.db, postEditable, p.id, { snapshot: { ...draft }, version: live.version, draftSavedAt: savedAt }, paul)).toMatchObject({ ok: true });
    const after = await publicView(p.id);
    expect(after.title).toBe('Secret draft');
    expect(after.feed).toContain('<title>Secret draft</title>');
    expect(await getDraft(t.db, { type: 'post', id: p.id })).toBeUndefined();
  });

  it('a never-published post and its schedule stay out of the blog, sitemap and feed until due', async () => {
    const p = await createPost(t.db, marie, post('Forage à Thiès', { status: 'Brouillon' }));
    const at = new Date('2030-05-01T08:00:00Z');
    await saveDraft(t.db, postEditable, p.id, { snapshot: postSnapshot(p), version: p.version, draftSavedAt: '', publishAt: at.toISOString() }, marie);
    expect((await scheduledFor(t.db, 'post', [p.id])).get(p.id)).toBe(at.toISOString());
    expect(await publishDue(t.db, editable, new Date(at.getTime() - 1000))).toEqual([]);
    const v = await publicView(p.id);
    expect(v).toMatchObject({ title: undefined, listTitle: undefined, inSitemap: false });
    expect(v.feed).not.toContain('Forage à Thiès');
    // A visitor asking for the page gets nothing: drafts are not public.
    expect(await getPublishedPost(t.db, p.id, 'fr')).toBeUndefined();

    expect(await publishDue(t.db, editable, at)).toEqual([{ type: 'post', id: p.id }]);
    expect((await publicView(p.id)).title).toBe('Forage à Thiès EN');
    expect((await getPost(t.db, p.id))?.status).toBe('Publié');
    expect((await scheduledFor(t.db, 'post', [p.id])).size).toBe(0);
  });

  // PostgreSQL: two instances (two pools on one database) run the job at once. SQLite deployments
  // are single-instance (ADR 004): there, concurrent runs share the one connection.
  describe(dialect === 'postgres' ? 'with two instances' : 'with concurrent runs', () => {
    let other: DbHandle | undefined;
    beforeAll(() => {
      if (dialect !== 'postgres') return;
      const url = (t.pool as unknown as { options: { connectionString: string } }).options.connectionString;
      other = openDatabase({ databaseUrl: url, dataDir: t.dataDir });
    });
    afterAll(() => other?.close());

    it('publishes each scheduled item exactly once', async () => {
      const at = new Date('2031-01-01T09:00:00Z');
      const ids: string[] = [];
      for (const title of ['Un', 'Deux', 'Trois']) {
        const p = await createPost(t.db, marie, post(title, { status: 'Brouillon' }));
        await saveDraft(t.db, postEditable, p.id, { snapshot: postSnapshot(p), version: p.version, draftSavedAt: '', publishAt: at.toISOString() }, marie);
        ids.push(p.id);
      }
      const runs = await Promise.all([
        ...Array.from({ length: 3 }, () => publishDue(t.db, editable, at)),
        ...Array.from({ length: 3 }, () => publishDue((other ?? t).db, editable, at)),
      ]);
      const published = runs.flat().map((r) => r.id);
      expect(published.sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const revisions = await listRevisions(t.db, { type: 'post', id });
        expect(revisions.filter((r) => r.kind === 'publish')).toHaveLength(1);
        expect((await getPost(t.db, id))?.version).toBe(2);
      }
      const audits = await t.db.selectFrom('audit_log').select('details').where('action', '=', 'post.publish').execute();
      for (const id of ids) expect(audits.filter((a) => JSON.parse(a.details).id === id)).toHaveLength(1);
    });
  });

  it('restoring revision N reproduces its content exactly, as a new audited revision', async () => {
    const first = post('Rentrée scolaire', {
      translations: {
        fr: { category: 'Éducation', title: 'Rentrée scolaire', excerpt: 'Des « cahiers » & des stylos', content: '<p>Paragraphe <strong>important</strong></p><ul><li>un</li></ul>' },
        en: { category: 'Education', title: 'Back to school', excerpt: 'Notebooks', content: '<p>Important <em>paragraph</em></p>' },
        es: { category: 'Educación', title: 'Vuelta al cole', excerpt: 'Cuadernos', content: '<p>Párrafo</p>' },
      },
    });
    const p = await createPost(t.db, marie, first);
    const original = postSnapshot((await getPost(t.db, p.id))!);
    const r2 = await updatePost(t.db, paul, p.id, withTitle(first, 'Paragraphe supprimé', 'Deleted paragraph'), p.version);
    expect('post' in r2).toBe(true);
    const revisions = await listRevisions(t.db, { type: 'post', id: p.id });
    expect(revisions.map((r) => [r.number, r.kind, r.authorName])).toEqual([
      [2, 'save', 'Paul Éluard'],
      [1, 'create', 'Marie Curie'],
    ]);
    // The comparison names what changed, per field and language.
    const rev1 = (await getRevision(t.db, { type: 'post', id: p.id }, 1))!;
    const rev2 = (await getRevision(t.db, { type: 'post', id: p.id }, 2))!;
    const changed = compareSnapshots(rev1.snapshot, rev2.snapshot).filter((d) => d.changed);
    expect(changed.find((d) => d.field === 'title' && d.lang === 'en')).toMatchObject({ before: 'Back to school', after: 'Deleted paragraph' });
    expect(changed.find((d) => d.field === 'title' && d.lang === 'es')).toBeUndefined();

    const current = (await getPost(t.db, p.id))!;
    // A restore from a stale form is refused like any save.
    expect(await restoreRevision(t.db, postEditable, p.id, 1, current.version - 1, marie)).toEqual({ ok: false, error: 'conflict' });
    expect(await restoreRevision(t.db, postEditable, p.id, 1, current.version, marie)).toEqual({ ok: true, revision: 3 });
    const restored = (await getPost(t.db, p.id))!;
    expect(postSnapshot(restored)).toEqual(original);
    expect((await getRevision(t.db, { type: 'post', id: p.id }, 3))?.kind).toBe('restore');
    const audit = await t.db.selectFrom('audit_log').select(['action', 'user_name', 'details']).where('action', '=', 'post.restore').execute();
    expect(audit.map((a) => [a.user_name, JSON.parse(a.details).restored])).toEqual([['Marie Curie', 1]]);
  });

  it('content older than its history keeps its first state: the first change can be undone', async () => {
    const seeded = post('Article importé');
    const now = new Date().toISOString();
    await t.db.insertInto('blog_posts').values({ id: 'seeded-1', image: seeded.image, author: seeded.author, date: seeded.date, status: 'Publié', translations: JSON.stringify(seeded.translations), version: 1, created_at: now, updated_at: now }).execute();
    const draft = withTitle(seeded, 'Titre changé', 'Changed title');
    await publish(t.db, postEditable, 'seeded-1', { snapshot: { ...draft }, version: 1, draftSavedAt: '' }, marie);
    expect((await listRevisions(t.db, { type: 'post', id: 'seeded-1' })).map((r) => [r.number, r.kind, r.authorName])).toEqual([
      [2, 'publish', 'Marie Curie'],
      [1, 'initial', 'Avant l’historique'],
    ]);
    expect(await restoreRevision(t.db, postEditable, 'seeded-1', 1, 2, paul)).toMatchObject({ ok: true });
    expect(postSnapshot((await getPost(t.db, 'seeded-1'))!)).toEqual({ ...seeded, status: 'Publié' });
    expect((await getPublishedPost(t.db, 'seeded-1', 'en'))?.title).toBe('Article importé EN');
  });

  it('projects and partners keep revisions too, and restore them exactly', async () => {
    const tr = (title: string) => ({ fr: { title, description: '<p>Puits</p>' }, en: { title: `${title} EN`, description: '<p>Well</p>' }, es: { title: `${title} ES`, description: '<p>Pozo</p>' } });
    const project = await createProject(t.db, marie, { image: '/media/p.webp', date: '2026-01-15', location: 'Dakar', status: 'Planifié', active: true, translations: tr('Puits') });
    const original = projectSnapshot(project);
    const changed = await updateProject(t.db, paul, project.id, { image: '/media/p.webp', date: '2026-01-15', location: 'Thiès', status: 'En cours', active: false, translations: tr('Puits profond') }, 1);
    expect('project' in changed).toBe(true);
    expect((await listRevisions(t.db, { type: 'project', id: project.id })).map((r) => r.kind)).toEqual(['save', 'create']);
    expect(await restoreRevision(t.db, projectEditable, project.id, 1, 2, marie)).toMatchObject({ ok: true, revision: 3 });
    expect(projectSnapshot((await getProject(t.db, project.id))!)).toEqual(original);
    expect((await listActiveProjects(t.db, 'en')).map((p) => p.title)).toContain('Puits EN');

    const partner = await createPartner(t.db, marie, { name: 'Eau Vive', logoUrl: '/media/l.webp', website: 'https://eau-vive.example' });
    await updatePartner(t.db, paul, partner.id, { name: 'Eau Vive International', logoUrl: '/media/l.webp', website: 'https://eau-vive.example' }, 1);
    const revs = await listRevisions(t.db, { type: 'partner', id: partner.id });
    const rev1 = (await getRevision(t.db, { type: 'partner', id: partner.id }, 1))!;
    const rev2 = (await getRevision(t.db, { type: 'partner', id: partner.id }, 2))!;
    expect(revs.map((r) => r.authorName)).toEqual(['Paul Éluard', 'Marie Curie']);
    expect(compareSnapshots(rev1.snapshot, rev2.snapshot).filter((d) => d.changed).map((d) => d.path)).toEqual(['name']);
    expect(await revisionSnapshots(t.db, { type: 'partner', id: partner.id })).toEqual(new Map([[1, rev1.snapshot], [2, rev2.snapshot]]));
    expect(await restoreRevision(t.db, partnerEditable, partner.id, 1, 2, marie)).toMatchObject({ ok: true });
    expect((await getPartner(t.db, partner.id))?.name).toBe('Eau Vive');
    expect((await listPartners(t.db)).map((p) => p.name)).toContain('Eau Vive');
  });

  it('pages keep revisions of their texts per language, and restore them exactly', async () => {
    const first = await getEditablePage(t.db, 'about');
    const field = findManagedPage('about')!.fields.find((f) => f.kind === 'text')!.id;
    const texts = (title: string) => ({ fr: { ...first.texts.fr, [field]: title }, en: { ...first.texts.en, [field]: `${title} EN` }, es: { ...first.texts.es } });
    expect(await savePageContent(t.db, marie, 'about', { images: first.images, texts: texts('Qui sommes-nous') }, first.version)).toBe('ok');
    const saved1 = await getEditablePage(t.db, 'about');
    expect(await savePageContent(t.db, paul, 'about', { images: saved1.images, texts: texts('Notre histoire') }, saved1.version)).toBe('ok');
    const revisions = await listRevisions(t.db, { type: 'page', id: 'about' });
    expect(revisions.map((r) => [r.kind, r.authorName])).toEqual([
      ['save', 'Paul Éluard'],
      ['save', 'Marie Curie'],
    ]);
    const [newest, older] = revisions;
    const diff = compareSnapshots((await getRevision(t.db, { type: 'page', id: 'about' }, older.number))!.snapshot, (await getRevision(t.db, { type: 'page', id: 'about' }, newest.number))!.snapshot);
    expect(diff.filter((d) => d.changed).map((d) => [d.field, d.lang])).toEqual([
      [field, 'fr'],
      [field, 'en'],
    ]);
    const now = await getEditablePage(t.db, 'about');
    expect(await restoreRevision(t.db, pageEditable, 'about', older.number, now.version, marie)).toMatchObject({ ok: true });
    const restored = await getEditablePage(t.db, 'about');
    expect({ images: restored.images, texts: restored.texts }).toEqual({ images: saved1.images, texts: saved1.texts });
    expect((await getLocalizedPage(t.db, 'about', 'en')).fields[field]).toBe('Qui sommes-nous EN');
  });

  it('keeps a bounded number of revisions per item, and none once the item is deleted', async () => {
    const p = await createPost(t.db, marie, post('Bornes'));
    for (let i = 0; i < 5; i++) await recordRevision(t.db, { type: 'post', id: p.id }, { n: i }, marie, 'save', 3);
    expect((await listRevisions(t.db, { type: 'post', id: p.id })).map((r) => r.number)).toEqual([6, 5, 4]);
    await deletePost(t.db, marie, p.id);
    expect(await listRevisions(t.db, { type: 'post', id: p.id })).toEqual([]);
  });

  it('an autosave never overwrites a newer save, and shows who else has the item open', async () => {
    const p = await createPost(t.db, marie, post('Autosave'));
    const ref = { type: 'post', id: p.id };
    const t0 = new Date('2026-11-23T10:00:00Z');
    const opened = { version: p.version, draftSavedAt: '' };
    const mine = await openForEditing(t.db, ref, marie, opened, t0);
    expect(mine).toEqual({ seq: 0, copy: null, others: [] });
    const his = await openForEditing(t.db, ref, paul, opened, new Date(t0.getTime() + 1000));
    expect(his.others.map((o) => o.name)).toEqual(['Marie Curie']);

    const a1 = await autosave(t.db, ref, marie, { ...opened, values: { 'fr.title': 'v1' }, seq: 0, liveVersion: p.version }, new Date(t0.getTime() + 5000));
    expect(a1).toMatchObject({ ok: true, seq: 1 });
    const a2 = await autosave(t.db, ref, marie, { ...opened, values: { 'fr.title': 'v2' }, seq: 1, liveVersion: p.version }, new Date(t0.getTime() + 9000));
    expect(a2).toMatchObject({ ok: true, seq: 2 });
    // A late request carrying the copy before v2 (another tab, a slow network) is refused.
    expect(await autosave(t.db, ref, marie, { ...opened, values: { 'fr.title': 'old' }, seq: 1, liveVersion: p.version })).toEqual({ ok: false, error: 'newer' });
    expect((await getCopy(t.db, ref, marie.id))?.values).toEqual({ 'fr.title': 'v2' });

    // Paul sees Marie typing.
    const seen = await openForEditing(t.db, ref, paul, opened, new Date(t0.getTime() + 120_000));
    expect(seen.others).toEqual([{ name: 'Marie Curie', openedAt: t0.toISOString(), savedAt: new Date(t0.getTime() + 9000).toISOString() }]);

    // After a crash Marie gets her copy back on the same version…
    expect((await openForEditing(t.db, ref, marie, opened, new Date(t0.getTime() + 200_000))).copy?.values).toEqual({ 'fr.title': 'v2' });
    // …but once Paul saves the post, her copy cannot be written over his save, nor offered again.
    const saved = await updatePost(t.db, paul, p.id, post('Sauvé par Paul'), p.version);
    if (!('post' in saved)) throw new Error('save failed');
    expect(await autosave(t.db, ref, marie, { ...opened, values: { 'fr.title': 'v3' }, seq: 2, liveVersion: saved.post.version })).toEqual({ ok: false, error: 'stale' });
    expect((await getPost(t.db, p.id))?.translations.fr.title).toBe('Sauvé par Paul');
    expect((await openForEditing(t.db, ref, marie, { version: saved.post.version, draftSavedAt: '' })).copy).toBeNull();

    await clearCopy(t.db, ref, paul.id, saved.post.version);
    expect(await getCopy(t.db, ref, paul.id)).toBeUndefined();
  });

  it('refuses a draft from a form opened before another draft or save', async () => {
    const p = await createPost(t.db, marie, post('Concurrence'));
    const snap = { ...post('Concurrence') };
    expect(await saveDraft(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });
    // Paul opened the form before Marie's draft existed.
    expect(await saveDraft(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt: '' }, paul)).toEqual({ ok: false, error: 'conflict' });
    const d = (await getDraft(t.db, { type: 'post', id: p.id }))!;
    expect(await saveDraft(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt: d.savedAt }, paul)).toMatchObject({ ok: true });
    expect((await getDraft(t.db, { type: 'post', id: p.id }))?.savedByName).toBe('Paul Éluard');
  });

  it('"Publier" and "Abandonner" from a form opened on an older draft are refused, even within the same millisecond, and write nothing', async () => {
    const p = await createPost(t.db, marie, post('Horloge'));
    const ref = { type: 'post', id: p.id };
    const snap = { ...withTitle(post('Horloge'), 'Texte de Marie', 'Marie’s text') };
    const count = async (action: string) => (await t.db.selectFrom('audit_log').select('id').where('action', '=', action).execute()).length;
    // Two drafts saved at the same instant of the clock must still be told apart.
    vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z'), toFake: ['Date'] });
    try {
      expect(await saveDraft(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });
      const maries = (await getDraft(t.db, ref))!.savedAt;
      expect(await saveDraft(t.db, postEditable, p.id, { snapshot: { ...post('Horloge') }, version: p.version, draftSavedAt: maries }, paul)).toMatchObject({ ok: true });
      const pauls = (await getDraft(t.db, ref))!;
      expect(pauls.savedAt).not.toBe(maries);

      const before = { revisions: await listRevisions(t.db, ref), publishes: await count('post.publish'), discards: await count('post.draft.discard') };
      for (const draftSavedAt of [maries, '']) {
        expect(await publish(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt }, marie)).toEqual({ ok: false, error: 'conflict' });
        expect(await discardDraft(t.db, postEditable, p.id, draftSavedAt, marie)).toEqual({ ok: false, error: 'conflict' });
      }
      expect(await getDraft(t.db, ref)).toEqual(pauls);
      expect(postSnapshot((await getPost(t.db, p.id))!)).toEqual(postSnapshot(p));
      expect({ revisions: await listRevisions(t.db, ref), publishes: await count('post.publish'), discards: await count('post.draft.discard') }).toEqual(before);

      // On the draft as it is now, both are done (and audited).
      expect(await discardDraft(t.db, postEditable, p.id, pauls.savedAt, marie)).toEqual({ ok: true });
      expect(await getDraft(t.db, ref)).toBeUndefined();
      expect(await count('post.draft.discard')).toBe(before.discards + 1);
      expect(await publish(t.db, postEditable, p.id, { snapshot: snap, version: p.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });
      expect((await getPost(t.db, p.id))?.translations.fr.title).toBe('Texte de Marie');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an autosaved copy remembers the draft it was typed on, and is offered only while that draft is the item’s', async () => {
    const p = await createPost(t.db, marie, post('Copie et brouillon'));
    const ref = { type: 'post', id: p.id };
    const noDraft = { version: p.version, draftSavedAt: '' };
    const { seq } = await openForEditing(t.db, ref, marie, noDraft);
    expect(await autosave(t.db, ref, marie, { ...noDraft, values: { 'fr.title': 'Tapé sans brouillon' }, seq, liveVersion: p.version })).toMatchObject({ ok: true });
    expect(await getCopy(t.db, ref, marie.id)).toMatchObject({ baseVersion: p.version, draftSavedAt: '' });
    expect((await openForEditing(t.db, ref, marie, noDraft)).copy?.values).toEqual({ 'fr.title': 'Tapé sans brouillon' });

    await saveDraft(t.db, postEditable, p.id, { snapshot: { ...post('Copie et brouillon') }, ...noDraft }, paul);
    const onDraft = { version: p.version, draftSavedAt: (await getDraft(t.db, ref))!.savedAt };
    // Opened on Paul's draft, the form gets no copy: hers was typed without it, and is dropped.
    const reopened = await openForEditing(t.db, ref, marie, onDraft);
    expect(reopened.copy).toBeNull();
    expect(await getCopy(t.db, ref, marie.id)).toBeUndefined();
    expect(await autosave(t.db, ref, marie, { ...onDraft, values: { 'fr.title': 'Tapé sur le brouillon' }, seq: reopened.seq, liveVersion: p.version })).toMatchObject({ ok: true });
    expect(await getCopy(t.db, ref, marie.id)).toMatchObject({ draftSavedAt: onDraft.draftSavedAt });
    expect((await openForEditing(t.db, ref, marie, onDraft)).copy?.values).toEqual({ 'fr.title': 'Tapé sur le brouillon' });
  });

  it('revisions, drafts and autosaved copies are in backups, and come back', async () => {
    const p = await createPost(t.db, marie, post('Sauvegardé'));
    await saveDraft(t.db, postEditable, p.id, { snapshot: { ...withTitle(post('Sauvegardé'), 'Brouillon', 'Draft') }, version: 1, draftSavedAt: '' }, marie);
    await openForEditing(t.db, { type: 'post', id: p.id }, paul, { version: 1, draftSavedAt: (await getDraft(t.db, { type: 'post', id: p.id }))!.savedAt });
    const archive = path.join(t.dataDir, 'backups', 'editorial.tar.gz');
    const manifest = await createBackup(t, diskStorage(path.join(t.dataDir, 'media')), archive);
    const count = async (db: TestDb, table: 'revisions' | 'drafts' | 'autosaves') => Number((await db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    for (const table of ['revisions', 'drafts', 'autosaves'] as const) expect(manifest.tables[table]).toBe(await count(t, table));
    const target = await createTestDb(dialect, { migrate: false });
    try {
      await restoreBackup(target, diskStorage(path.join(target.dataDir, 'media')), archive);
      expect(await listRevisions(target.db, { type: 'post', id: p.id })).toEqual(await listRevisions(t.db, { type: 'post', id: p.id }));
      expect(await getDraft(target.db, { type: 'post', id: p.id })).toEqual(await getDraft(t.db, { type: 'post', id: p.id }));
      expect(await count(target, 'autosaves')).toBe(await count(t, 'autosaves'));
    } finally {
      await target.destroy();
    }
  });
});

/**
 * The post's edit screen through its routes, as React Router calls them, with two editors: what a
 * stale form may not do, what an autosaved copy may bring back, what the sitemap and feed show of a
 * scheduled post, and the REVISIONS_KEEP the server is started with.
 */
describeEachDialect('the post editor’s routes on %s', (dialect) => {
  const ORIGIN = 'https://fondation.example.org';
  const KEEP = 4;
  let app: { stop: () => Promise<void> } | undefined;
  const cookies: Record<string, string> = {};
  const db = () => runtime().db;
  type Who = typeof marie;

  beforeAll(async () => {
    app = await startTestRuntime(dialect, 'editorial-routes-'.padEnd(48, 'e'), { REVISIONS_KEEP: String(KEEP) });
    for (const who of [marie, paul]) cookies[who.id] = await sessionCookie(db(), { ...who, email: `${who.id}@example.org` });
  });
  afterAll(() => app?.stop());

  /** The edit screen as `who` opens it (`query`: "?copie=1" for "Restaurer la copie"): the form as it will post, and the copy offered. */
  async function open(who: Who, id: string, query = '') {
    const request = new Request(`${ORIGIN}/admin/blog/${id}${query}`, { headers: { Cookie: cookies[who.id] } });
    const loaded = (await editLoader({ request, params: { id }, context: routeContext() } as never)) as {
      version: number;
      values: Record<string, string>;
      editorial: { seq: number; copy: { savedAt: string } | null; draft: { savedAt: string } | null };
    };
    const form: Record<string, string> = { ...loaded.values, version: String(loaded.version), draftSavedAt: loaded.editorial.draft?.savedAt ?? '' };
    return { form, seq: loaded.editorial.seq, copy: loaded.editorial.copy };
  }

  /** `who` presses one of the screen's buttons (`intent`) with the form as it is. */
  async function press(who: Who, id: string, intent: string, form: Record<string, string>) {
    const request = new Request(`${ORIGIN}/admin/blog/${id}`, { method: 'POST', headers: { Cookie: cookies[who.id], Origin: ORIGIN }, body: new URLSearchParams({ ...form, intent }) });
    const { body, status } = answer(await editAction({ request, params: { id }, context: routeContext() } as never));
    return { status, toast: (body.toast as { title: string } | null)?.title, error: (body.errors as Record<string, string>)?.form, values: body.values };
  }

  /** `who`'s page sends what is typed to the autosave route. */
  async function typed(who: Who, id: string, form: Record<string, string>, seq: number) {
    const request = new Request(`${ORIGIN}/admin/blog/${id}/autosave`, { method: 'POST', headers: { Cookie: cookies[who.id], Origin: ORIGIN }, body: new URLSearchParams({ ...form, seq: String(seq) }) });
    return answer(await autosaveAction({ request, params: { id }, context: routeContext() } as never)).body;
  }

  /** The item's revisions are dated `minutes` ago (lastChange then says "il y a N min"). */
  async function aged(id: string, minutes: number) {
    await db().updateTable('revisions').set({ created_at: new Date(Date.now() - minutes * 60_000).toISOString() }).where('entity_type', '=', 'post').where('entity_id', '=', id).execute();
  }

  it('"Publier" and "Abandonner" from a form opened before another editor’s draft are refused like a stale save, naming who changed it', async () => {
    const p = await createPost(db(), marie, post('Cantine de Fatick'));
    const ref = { type: 'post', id: p.id };
    const maries = await open(marie, p.id);
    const pauls = await open(paul, p.id);
    expect(await press(paul, p.id, 'draft', { ...pauls.form, 'fr.title': 'Cantine de Fatick (Paul)' })).toMatchObject({ status: 200, toast: 'Brouillon enregistré' });
    const draft = await getDraft(db(), ref);
    await aged(p.id, 5);

    // Marie's form was opened on the published post, before Paul's draft: each button is refused,
    // saying who changed it and when, and her text stays in the form.
    const stale = { ...maries.form, 'fr.title': 'Cantine de Fatick (Marie)' };
    const refused = { status: 409, error: `${CONFLICT} Modifié par Paul Éluard il y a 5 min.`, values: { 'fr.title': 'Cantine de Fatick (Marie)' } };
    for (const intent of ['publish', 'discard', 'draft', 'schedule']) {
      expect(await press(marie, p.id, intent, { ...stale, publishAt: utcToParisLocal(new Date(Date.now() + 3_600_000).toISOString()) }), intent).toMatchObject(refused);
    }
    expect((await getPublishedPost(db(), p.id, 'fr'))?.title).toBe('Cantine de Fatick');
    expect(await getDraft(db(), ref)).toEqual(draft);

    // Reopened, her form continues Paul's draft: "Publier" publishes it.
    const reopened = await open(marie, p.id);
    expect(reopened.form['fr.title']).toBe('Cantine de Fatick (Paul)');
    expect(await press(marie, p.id, 'publish', reopened.form)).toMatchObject({ status: 200, toast: 'Article modifié !' });
    expect((await getPublishedPost(db(), p.id, 'fr'))?.title).toBe('Cantine de Fatick (Paul)');
    expect(await getDraft(db(), ref)).toBeUndefined();
  });

  it('a form opened on an older draft can neither publish nor discard the newer one', async () => {
    const p = await createPost(db(), marie, post('Forage de Matam'));
    const ref = { type: 'post', id: p.id };
    expect(await press(paul, p.id, 'draft', { ...(await open(paul, p.id)).form, 'fr.title': 'Premier brouillon' })).toMatchObject({ status: 200 });
    const maries = await open(marie, p.id);
    expect(maries.form['fr.title']).toBe('Premier brouillon');
    expect(await press(paul, p.id, 'draft', { ...(await open(paul, p.id)).form, 'fr.title': 'Second brouillon' })).toMatchObject({ status: 200 });
    for (const intent of ['publish', 'discard']) {
      expect(await press(marie, p.id, intent, maries.form), intent).toMatchObject({ status: 409, error: `${CONFLICT} Modifié par Paul Éluard à l'instant.` });
    }
    expect((await getDraft(db(), ref))?.snapshot).toMatchObject({ translations: { fr: { title: 'Second brouillon' } } });
    expect((await getPublishedPost(db(), p.id, 'fr'))?.title).toBe('Forage de Matam');
    // Opened on the draft as it is now, "Abandonner" discards it.
    expect(await press(marie, p.id, 'discard', (await open(marie, p.id)).form)).toMatchObject({ status: 200, toast: 'Brouillon abandonné' });
    expect(await getDraft(db(), ref)).toBeUndefined();
  });

  it('an autosaved copy typed before another editor’s draft is not restored over it; one typed on that draft is', async () => {
    const p = await createPost(db(), marie, post('Puits de Louga'));
    const opened = await open(marie, p.id);
    expect(await typed(marie, p.id, { ...opened.form, 'fr.title': 'Tapé par Marie' }, opened.seq)).toMatchObject({ ok: true });
    // Her tab closes; reopened before anyone else saved, the copy is offered.
    expect((await open(marie, p.id)).copy).not.toBeNull();

    const pauls = await open(paul, p.id);
    expect(await press(paul, p.id, 'draft', { ...pauls.form, 'fr.title': 'Brouillon de Paul' })).toMatchObject({ status: 200 });
    // "Restaurer la copie" (a link shown before Paul's draft) brings back Paul's draft, not her copy, and offers no copy.
    const restored = await open(marie, p.id, '?copie=1');
    expect([restored.form['fr.title'], restored.copy]).toEqual(['Brouillon de Paul', null]);
    expect((await open(marie, p.id)).copy).toBeNull();

    // What she types on Paul's draft is offered back, and restored with that draft's time.
    const onDraft = await open(marie, p.id);
    expect(await typed(marie, p.id, { ...onDraft.form, 'fr.title': 'Brouillon de Paul, relu par Marie' }, onDraft.seq)).toMatchObject({ ok: true });
    expect((await open(marie, p.id)).copy).not.toBeNull();
    const back = await open(marie, p.id, '?copie=1');
    expect([back.form['fr.title'], back.form.draftSavedAt]).toEqual(['Brouillon de Paul, relu par Marie', onDraft.form.draftSavedAt]);
    expect(await press(marie, p.id, 'draft', back.form)).toMatchObject({ status: 200, toast: 'Brouillon enregistré' });
  });

  it('a post scheduled for later is in neither the sitemap nor the Atom feed until the job publishes it', async () => {
    const p = await createPost(db(), marie, post('Récolte de mil à Kolda', { status: 'Brouillon' }));
    const at = new Date(Date.now() + 3_600_000);
    expect(await press(marie, p.id, 'schedule', { ...(await open(marie, p.id)).form, publishAt: utcToParisLocal(at.toISOString()) })).toMatchObject({ toast: 'Publication programmée' });
    const listed = async () => {
      const args = (path: string) => ({ request: new Request(`${ORIGIN}${path}`), params: {}, context: routeContext() }) as never;
      const sitemap = await ((await sitemapLoader(args('/sitemap.xml'))) as Response).text();
      const feed = await ((await feedLoader(args('/blog/feed.xml?lng=en'))) as Response).text();
      return { sitemap: sitemap.includes(`<loc>${ORIGIN}/en/blog/${p.id}</loc>`), feed: feed.includes('<title>Récolte de mil à Kolda EN</title>') };
    };
    expect(await listed()).toEqual({ sitemap: false, feed: false });
    expect(await runScheduledPublishing(new Date(at.getTime() - 60_000))).toBe(0);
    expect(await listed()).toEqual({ sitemap: false, feed: false });
    expect(await runScheduledPublishing(new Date(at.getTime() + 60_000))).toBe(1);
    expect(await listed()).toEqual({ sitemap: true, feed: true });
  });

  it('keeps the REVISIONS_KEEP newest revisions of an item, as the server was started with', async () => {
    const p = await createPost(db(), marie, post('Bornes'));
    for (const title of ['Un', 'Deux', 'Trois', 'Quatre', 'Cinq']) {
      expect(await press(marie, p.id, 'draft', { ...(await open(marie, p.id)).form, 'fr.title': title })).toMatchObject({ toast: 'Brouillon enregistré' });
    }
    expect((await listRevisions(db(), { type: 'post', id: p.id })).map((r) => r.number)).toEqual([6, 5, 4, 3]);
  });
});
