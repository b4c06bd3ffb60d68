import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '~/domain/audit/audit.server';
import { createPost, deletePost, getPublishedPost, listPostsPage, listPublishedPosts, setPostStatus, updatePost, type PostInput } from '~/domain/blog/posts.server';
import { PAGE_SIZE } from '~/domain/content/forms';
import { getEditablePage, getLocalizedPage, savePageContent } from '~/domain/content/pages.server';
import { countUnreadMessages, createMessage, deleteMessage, listMessagesPage, readMessage } from '~/domain/messages/messages.server';
import { createPartner, deletePartner, listPartners, listPartnersPage, updatePartner } from '~/domain/partners/partners.server';
import { createProject, deleteProject, getProject, listActiveProjects, listProjectsPage, updateProject, type ProjectInput } from '~/domain/projects/projects.server';
import { EMPTY_SITE_SETTINGS } from '~/domain/settings/site-settings';
import { getEditableSiteSettings, getSiteSettings, saveSiteSettings } from '~/domain/settings/site-settings.server';
import { mailContactMessage } from '~/domain/messages/notify.server';
import { XSS_CORPUS, expectHarmless } from '../support/xss';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const actor: Actor = { id: null, name: 'Test' };
const tr = (title: string, description = '') => ({ fr: { title, description }, en: { title: `${title} EN`, description }, es: { title: `${title} ES`, description } });
const project = (title: string, over: Partial<ProjectInput> = {}): ProjectInput => ({
  image: '/media/p.webp',
  date: '2026-01-15',
  location: 'Dakar',
  status: 'Planifié',
  active: true,
  translations: tr(title),
  ...over,
});
const post = (title: string, over: Partial<PostInput> = {}): PostInput => ({
  image: '/media/c.webp',
  author: 'Admin THV',
  date: '2026-02-01',
  status: 'Brouillon',
  translations: {
    fr: { category: 'Santé', title, excerpt: 'Résumé', content: '<p>Corps</p>' },
    en: { category: 'Health', title: `${title} EN`, excerpt: 'Summary', content: '<p>Body</p>' },
    es: { category: 'Salud', title: `${title} ES`, excerpt: 'Resumen', content: '<p>Cuerpo</p>' },
  },
  ...over,
});

async function auditActions(t: TestDb): Promise<string[]> {
  return (await t.db.selectFrom('audit_log').select('action').orderBy('at').execute()).map((r) => r.action);
}

describeEachDialect('content write side on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  it('creates, updates with a version check, and deletes a project; the public list follows', async () => {
    const created = await createProject(t.db, actor, project('Puits à Thiès'));
    expect(created.version).toBe(1);
    expect((await listActiveProjects(t.db, 'en')).map((p) => p.title)).toContain('Puits à Thiès EN');

    const updated = await updateProject(t.db, actor, created.id, project('Puits à Thiès (2)', { active: false }), 1);
    expect('project' in updated && updated.project.version).toBe(2);
    expect((await listActiveProjects(t.db, 'fr')).map((p) => p.id)).not.toContain(created.id);

    // A second save from the form opened at version 1 is told the project changed meanwhile.
    expect(await updateProject(t.db, actor, created.id, project('Écrase tout'), 1)).toEqual({ error: 'conflict' });
    expect((await getProject(t.db, created.id))!.translations.fr.title).toBe('Puits à Thiès (2)');

    expect((await deleteProject(t.db, actor, created.id))?.id).toBe(created.id);
    expect(await getProject(t.db, created.id)).toBeUndefined();
    expect(await updateProject(t.db, actor, created.id, project('x'), 2)).toEqual({ error: 'notFound' });
    expect(await auditActions(t)).toEqual(['project.create', 'project.update', 'project.delete']);
  });

  it('pages and searches lists of hundreds of items, case-insensitively on both databases', async () => {
    for (let i = 0; i < 230; i++) await createProject(t.db, actor, project(`Projet numéro ${i}`, { location: i === 77 ? 'Ouagadougou' : 'Lomé', date: `2025-${String((i % 12) + 1).padStart(2, '0')}-10` }));
    const first = await listProjectsPage(t.db, { q: '', page: 1 });
    expect(first.total).toBe(230);
    expect(first.items).toHaveLength(PAGE_SIZE);
    expect(first.pages).toBe(Math.ceil(230 / PAGE_SIZE));
    const last = await listProjectsPage(t.db, { q: '', page: 999 });
    expect(last.page).toBe(first.pages);
    expect(last.items).toHaveLength(230 - (first.pages - 1) * PAGE_SIZE);
    expect((await listProjectsPage(t.db, { q: 'OUAGA', page: 1 })).items.map((p) => p.location)).toEqual(['Ouagadougou']);
    // % and _ are searched literally.
    expect((await listProjectsPage(t.db, { q: '100%', page: 1 })).total).toBe(0);
  });

  it('keeps drafts off the public blog; the status switch publishes with the same version check', async () => {
    const draft = await createPost(t.db, actor, post('Brouillon secret'));
    expect(await getPublishedPost(t.db, draft.id, 'fr')).toBeUndefined();
    const published = await setPostStatus(t.db, actor, draft.id, 'Publié', 1);
    expect('post' in published && published.post.status).toBe('Publié');
    expect((await listPublishedPosts(t.db, 'es')).map((p) => p.title)).toContain('Brouillon secret ES');
    expect(await setPostStatus(t.db, actor, draft.id, 'Brouillon', 1)).toEqual({ error: 'conflict' });
    const edited = await updatePost(t.db, actor, draft.id, post('Publié et corrigé', { status: 'Publié' }), 2);
    expect('post' in edited && edited.post.version).toBe(3);
    expect((await listPostsPage(t.db, { q: 'corrigé', page: 1, status: 'Publié' })).total).toBe(1);
    expect((await listPostsPage(t.db, { q: '', page: 1, status: 'Brouillon' })).total).toBe(0);
    await deletePost(t.db, actor, draft.id);
    expect(await getPublishedPost(t.db, draft.id, 'fr')).toBeUndefined();
  });

  it('adds partners last, edits with a version check, deletes', async () => {
    const a = await createPartner(t.db, actor, { name: 'Alpha', logoUrl: '/media/a.png', website: 'https://alpha.example' });
    const b = await createPartner(t.db, actor, { name: 'Beta', logoUrl: '/media/b.png', website: 'https://beta.example' });
    expect((await listPartners(t.db)).map((p) => p.name)).toEqual(['Alpha', 'Beta']);
    expect(await updatePartner(t.db, actor, a.id, { name: 'Alpha 2', logoUrl: '/media/a.png', website: 'https://alpha.example' }, 1)).toMatchObject({ partner: { name: 'Alpha 2', version: 2 } });
    expect(await updatePartner(t.db, actor, a.id, { name: 'Alpha 3', logoUrl: '/media/a.png', website: 'https://alpha.example' }, 1)).toEqual({ error: 'conflict' });
    expect((await listPartnersPage(t.db, { q: 'BETA', page: 1 })).items.map((p) => p.name)).toEqual(['Beta']);
    await deletePartner(t.db, actor, b.id);
    expect((await listPartners(t.db)).map((p) => p.name)).toEqual(['Alpha 2']);
  });

  it('saves page content per language with a version check (a page without a row starts at version 0)', async () => {
    const before = await getEditablePage(t.db, 'about');
    expect(before.version).toBe(0);
    const content = { images: { founderImage: '/media/f.webp' }, texts: { fr: { title: 'À propos', content: '<p>Bonjour</p>' }, en: { title: 'About', content: '' }, es: { title: 'Acerca', content: '' } } };
    expect(await savePageContent(t.db, actor, 'about', content, 0)).toBe('ok');
    expect(await savePageContent(t.db, actor, 'about', content, 0)).toBe('conflict');
    expect(await savePageContent(t.db, actor, 'about', { ...content, texts: { ...content.texts, en: { title: 'About us', content: '' } } }, 1)).toBe('ok');
    const en = await getLocalizedPage(t.db, 'about', 'en');
    expect(en.fields.title).toBe('About us');
    // Empty in English: the French text is shown.
    expect(en.fields.content).toBe('<p>Bonjour</p>');
    expect(en.images.founderImage).toBe('/media/f.webp');
  });

  it('saves site settings with a version check', async () => {
    const { version } = await getEditableSiteSettings(t.db);
    const next = { ...EMPTY_SITE_SETTINGS, phone: '+221 33 000 00 00', whatsAppNumber: '221330000000' };
    expect(await saveSiteSettings(t.db, actor, next, version)).toBe('ok');
    expect(await saveSiteSettings(t.db, actor, { ...next, phone: 'autre' }, version)).toBe('conflict');
    expect((await getSiteSettings(t.db)).phone).toBe('+221 33 000 00 00');
    const entry = await t.db.selectFrom('audit_log').select(['details']).where('action', '=', 'settings.update').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details).changed).toEqual(['phone', 'whatsAppNumber']);
  });

  it('lists messages newest first, counts unread ones, marks one read when opened, deletes', async () => {
    const m1 = await createMessage(t.db, { firstName: 'Awa', lastName: 'Diop', email: 'awa@example.org', message: 'Premier' }, 'fr');
    await new Promise((r) => setTimeout(r, 5));
    const m2 = await createMessage(t.db, { firstName: 'John', lastName: 'Smith', email: 'john@example.org', message: 'Second' }, 'en');
    expect(await countUnreadMessages(t.db)).toBe(2);
    expect((await listMessagesPage(t.db, { q: '', page: 1 })).items.map((m) => m.id)).toEqual([m2.id, m1.id]);
    expect((await readMessage(t.db, m1.id))?.readAt).not.toBeNull();
    expect(await countUnreadMessages(t.db)).toBe(1);
    expect((await listMessagesPage(t.db, { q: '', page: 1, unread: true })).items.map((m) => m.id)).toEqual([m2.id]);
    expect((await listMessagesPage(t.db, { q: 'SMITH', page: 1 })).items.map((m) => m.id)).toEqual([m2.id]);
    await deleteMessage(t.db, actor, m2.id);
    expect(await countUnreadMessages(t.db)).toBe(0);
    expect(await readMessage(t.db, m2.id)).toBeUndefined();
  });

  it('mails a stored contact message to the contact email; a mail failure loses nothing and throws nothing', async () => {
    const input = { firstName: 'Ada', lastName: 'Ba', email: 'ada@example.org', message: 'Aidez-moi <b>svp</b>' };
    const stored = await createMessage(t.db, input, 'fr');
    const m = { ...input, language: 'fr' };
    await saveSiteSettings(t.db, actor, { ...EMPTY_SITE_SETTINGS }, (await getEditableSiteSettings(t.db)).version);
    expect(await mailContactMessage(t.db, { from: 'site@example.org' }, m, 'https://site/admin/messages/1')).toBeNull();
    await saveSiteSettings(t.db, actor, { ...EMPTY_SITE_SETTINGS, contactEmail: 'contact@fondation.example' }, (await getEditableSiteSettings(t.db)).version);
    expect(await mailContactMessage(t.db, { from: 'site@example.org' }, m, 'https://site/admin/messages/1')).toMatchObject({ status: 'outbox' });
    // An SMTP server that cannot be reached (a closed local port).
    const failed = await mailContactMessage(t.db, { smtpUrl: 'smtp://127.0.0.1:3499', from: 'site@example.org' }, m, 'https://site/admin/messages/1');
    expect(failed).toMatchObject({ status: 'failed' });
    const mails = await t.db.selectFrom('mail_outbox').selectAll().where('to', '=', 'contact@fondation.example').execute();
    expect(mails).toHaveLength(2);
    expect(mails[0].subject).toBe('Message de Ada Ba (formulaire de contact)');
    expect(mails[0].html).toContain('Aidez-moi &#60;b&#62;svp&#60;/b&#62;');
    expect(await readMessage(t.db, stored.id)).toMatchObject({ message: 'Aidez-moi <b>svp</b>' });
  });

  it('sanitizes every known XSS payload on save and on render, keeping the toolbar markup', async () => {
    const payload = XSS_CORPUS.join('\n');
    const toolbar = '<h1>T1</h1><h2>T2</h2><h3>T3</h3><p><strong>g</strong> <em>i</em> <u>s</u> <s>b</s> <a href="https://ex.org">lien</a> <a href="mailto:a@ex.org">mail</a></p><ol><li><p>un</p></li></ol><ul><li><p>puce</p></li></ul>';
    const p = await createProject(t.db, actor, project('XSS', { translations: tr('XSS', toolbar + payload) }));
    const stored = (await getProject(t.db, p.id))!.translations.fr.description;
    expectHarmless(stored);
    const rendered = (await listActiveProjects(t.db, 'fr')).find((x) => x.id === p.id)!.description;
    expectHarmless(rendered);
    for (const html of [stored, rendered]) {
      for (const tag of ['<h1>T1</h1>', '<h2>T2</h2>', '<h3>T3</h3>', '<strong>g</strong>', '<em>i</em>', '<u>s</u>', '<s>b</s>', '<ol><li><p>un</p></li></ol>', '<ul><li><p>puce</p></li></ul>']) expect(html).toContain(tag);
      expect(html).toContain('<a href="https://ex.org" target="_blank" rel="noopener noreferrer">lien</a>');
      expect(html).toContain('<a href="mailto:a@ex.org">mail</a>');
    }

    const bp = await createPost(t.db, actor, post('XSS', { status: 'Publié', translations: { ...post('x').translations, fr: { category: 'c', title: 'XSS', excerpt: 'e', content: payload } } }));
    expectHarmless((await getPublishedPost(t.db, bp.id, 'fr'))!.content);
    await savePageContent(t.db, actor, 'terms', { images: {}, texts: { fr: { title: 'T', content: payload }, en: {}, es: {} } }, (await getEditablePage(t.db, 'terms')).version);
    expectHarmless((await getLocalizedPage(t.db, 'terms', 'fr')).fields.content);
  });
});
