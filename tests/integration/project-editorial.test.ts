import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProjectInput } from '~/domain/projects/projects';
import { projectEditable } from '~/domain/projects/editable.server';
import { createProject, getProject, listActiveProjects } from '~/domain/projects/projects.server';
import { previewProjects } from '~/domain/projects/preview.server';
import { listRevisions } from '~/domain/revisions/revisions.server';
import { previewToken } from '~/domain/revisions/preview.server';
import { getDraft, publishDue, saveDraft, scheduledFor } from '~/domain/revisions/workflow.server';
import { I18nContext, makeI18n, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { action as listAction } from '~/routes/admin/content/projects';
import { action as editAction } from '~/routes/admin/content/project-edit';
import ProjectsPage, { loader as projectsLoader } from '~/routes/site/projects';
import { describeEachDialect } from '../support/db';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

/**
 * Projects in the whole editorial workflow (issue #17, ADR 015): an active project is changed as a
 * draft that the projects page (/nos-actions) never shows until "Publier"; the page previews it
 * only for an editor or a signed link; a scheduled publication happens once. The routes are
 * called as React Router calls them, and the page rendered to the HTML visitors get.
 */
const APP_SECRET = 'project-editorial-'.padEnd(48, 'p');
const ORIGIN = 'https://fondation.example.org';
const marie = { id: 'u-marie', name: 'Marie Curie' };

const project = (title: string, over: Partial<ProjectInput> = {}): ProjectInput => ({
  image: '/media/puits.webp',
  date: '2026-06-01',
  location: 'Kaolack, Sénégal',
  status: 'En cours',
  active: true,
  translations: {
    fr: { title, description: '<p>Un puits pour le village.</p>' },
    en: { title: `${title} (en)`, description: '<p>A well for the village.</p>' },
    es: { title: `${title} (es)`, description: '<p>Un pozo para el pueblo.</p>' },
  },
  ...over,
});

/** The edit form's fields for this project, as the browser posts them. */
const formOf = (p: ProjectInput, extra: Record<string, string>) => ({
  image: p.image,
  date: p.date,
  location: p.location,
  status: p.status,
  ...Object.fromEntries(Object.entries(p.translations).flatMap(([lang, t]) => [[`${lang}.title`, t.title], [`${lang}.description`, t.description]])),
  ...extra,
});

describeEachDialect('project drafts, preview and scheduling on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let editorCookie = '';
  const db = () => runtime().db;

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    editorCookie = await sessionCookie(db(), { id: 'u-eric', name: 'Éric Éditeur', email: 'eric@example.org' });
  });
  afterAll(() => app?.stop());

  /** GET /nos-actions (with this query) as the server renders it: the page's HTML and the response headers. */
  async function projectsPage(query: string, { cookie, lang = 'en' }: { cookie?: string; lang?: Lang } = {}) {
    const request = new Request(`${ORIGIN}/nos-actions?lng=${lang}${query}`, { headers: cookie ? { Cookie: cookie } : {} });
    const { body, headers } = answer(await projectsLoader({ request, params: {}, context: routeContext() } as never));
    const page = createElement(ProjectsPage as never, { loaderData: body } as never);
    const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: makeI18n(lang, messagesFor(lang)) }, page));
    return { html, headers, preview: body.preview };
  }

  /** The editor presses a button of the project's edit screen (`intent`) with these values. */
  async function edit(id: string, fields: Record<string, string>) {
    const request = new Request(`${ORIGIN}/admin/actions/${id}`, { method: 'POST', headers: { Cookie: editorCookie, Origin: ORIGIN }, body: new URLSearchParams(fields) });
    const { body, status } = answer(await editAction({ request, params: { id }, context: routeContext() } as never));
    return { status, toast: (body.toast as { title?: string } | null)?.title, errors: body.errors };
  }

  it('a draft of an active project never reaches the projects page until "Publier"; then visitors see it', async () => {
    const input = project('Un puits à Kaolack');
    const p = await createProject(db(), marie, input);
    const draft = { ...input, translations: { ...input.translations, en: { title: 'Two wells in Kaolack', description: '<p>Two wells, <strong>deep</strong>.</p>' } } };

    // "Enregistrer le brouillon" (what Enter does on an active project's screen).
    expect(await edit(p.id, formOf(draft, { version: String(p.version), intent: 'draft', draftSavedAt: '' }))).toMatchObject({ status: 200, toast: 'Brouillon enregistré' });
    expect((await getDraft(db(), { type: 'project', id: p.id }))?.snapshot).toMatchObject({ active: true, translations: { en: { title: 'Two wells in Kaolack' } } });
    expect((await getProject(db(), p.id))?.version).toBe(p.version);
    const before = await projectsPage('');
    expect(before.html).toContain('Un puits à Kaolack (en)');
    expect(before.html).not.toContain('Two wells');
    expect((await listActiveProjects(db(), 'en')).map((x) => x.title)).not.toContain('Two wells in Kaolack');
    // Asking for a preview without rights shows visitors' page, and it is not kept anywhere.
    const asked = await projectsPage(`&projet=${p.id}&apercu=1`);
    expect([asked.preview, asked.html.includes('Two wells'), asked.headers.get('Cache-Control')]).toEqual([null, false, 'private, no-store']);

    // "Publier" from the form that shows the draft (it carries the draft's time).
    const { savedAt } = (await getDraft(db(), { type: 'project', id: p.id }))!;
    expect(await edit(p.id, formOf(draft, { version: String(p.version), intent: 'publish', draftSavedAt: savedAt }))).toMatchObject({ status: 200, toast: 'Projet modifié !' });
    const after = await projectsPage('');
    expect(after.html).toContain('Two wells in Kaolack');
    expect(after.html).toContain('<strong>deep</strong>');
    expect(after.html).not.toContain('Un puits à Kaolack (en)');
    expect(await getDraft(db(), { type: 'project', id: p.id })).toBeUndefined();
    expect((await listRevisions(db(), { type: 'project', id: p.id })).map((r) => r.kind)).toEqual(['publish', 'draft', 'create']);
  });

  it('a project not shown on the site is saved in place, and its form cannot show it: "Publier" or the list\'s switch does', async () => {
    const input = project('Une école à Fatick', { active: false });
    const p = await createProject(db(), marie, input);
    // "Enregistrer", even with a forged "active" field: saved, still hidden.
    const renamed = { ...input, translations: { ...input.translations, en: { ...input.translations.en, title: 'A school in Fatick' } } };
    expect(await edit(p.id, formOf(renamed, { version: String(p.version), intent: 'save', active: 'on' }))).toMatchObject({ status: 200, toast: 'Projet modifié !' });
    const saved = (await getProject(db(), p.id))!;
    expect([saved.active, saved.translations.en.title, saved.version]).toEqual([false, 'A school in Fatick', p.version + 1]);
    expect((await projectsPage('')).html).not.toContain('A school in Fatick');

    // The list's "Visible" switch shows it at once, and hides it again.
    const list = async (active: '0' | '1', version: number) =>
      answer(await listAction({ request: new Request(`${ORIGIN}/admin/actions`, { method: 'POST', headers: { Cookie: editorCookie }, body: new URLSearchParams({ id: p.id, version: String(version), active }) }), params: {}, context: routeContext() } as never));
    expect((await list('1', saved.version)).body.toast).toMatchObject({ title: 'Projet affiché sur le site' });
    expect((await projectsPage('')).html).toContain('A school in Fatick');
    expect((await list('0', saved.version)).status).toBe(409);
    expect((await list('0', saved.version + 1)).body.toast).toMatchObject({ title: 'Projet retiré du site' });
    expect((await projectsPage('')).html).not.toContain('A school in Fatick');
  });

  it('the page previews the draft only for an editor or a valid signed link, in any language; a bad link sees visitors\' page', async () => {
    const input = project('Une clinique à Thiès', { date: '2020-01-01' });
    const p = await createProject(db(), marie, input);
    const draft = { ...input, date: '2031-01-01', translations: { ...input.translations, es: { title: 'Dos clínicas en Thiès', description: '<p>Borrador</p>' } } };
    await saveDraft(db(), projectEditable, p.id, { snapshot: { ...draft }, version: p.version, draftSavedAt: '' }, marie);
    expect(projectEditable.publicPath?.(p.id, {})).toBe(`/nos-actions?projet=${p.id}#projet-${p.id}`);

    const editor = await projectsPage(`&projet=${p.id}&apercu=1`, { cookie: editorCookie, lang: 'es' });
    expect(editor.preview).toBe(p.id);
    expect(editor.html).toContain('data-testid="preview-banner"');
    expect(editor.html).toContain('Dos clínicas en Thiès');
    expect(editor.html).not.toContain('Une clinique à Thiès (es)');
    // In its place in the list by the draft's date (newest first), marked and reachable by its anchor.
    expect(editor.html.indexOf('Dos clínicas en Thiès')).toBeLessThan(editor.html.indexOf('Un puits à Kaolack (es)'));
    expect(editor.html).toMatch(new RegExp(`<li id="projet-${p.id}" data-preview="true"`));
    expect(editor.headers.get('Cache-Control')).toBe('private, no-store');
    expect(editor.headers.get('X-Robots-Tag')).toContain('noindex');

    const token = previewToken(APP_SECRET, { type: 'project', id: p.id });
    const shared = await projectsPage(`&projet=${p.id}&apercu=${encodeURIComponent(token)}`, { lang: 'es' });
    expect([shared.preview, shared.html.includes('Dos clínicas en Thiès')]).toEqual([p.id, true]);
    for (const bad of [`${token}0`, previewToken(APP_SECRET, { type: 'post', id: p.id }), '1']) {
      const visitor = await projectsPage(`&projet=${p.id}&apercu=${encodeURIComponent(bad)}`, { lang: 'es' });
      expect([visitor.preview, visitor.html.includes('Dos clínicas'), visitor.html.includes('preview-banner')]).toEqual([null, false, false]);
      expect(visitor.html).toContain('Une clinique à Thiès (es)');
    }
    // A link made for another project previews nothing of this one.
    const other = await createProject(db(), marie, project('Un jardin à Mbour'));
    const misused = await projectsPage(`&projet=${p.id}&apercu=${encodeURIComponent(previewToken(APP_SECRET, { type: 'project', id: other.id }))}`, { lang: 'es' });
    expect(misused.preview).toBeNull();

    // A project not shown on the site is previewed as saved, among the others.
    const hidden = await createProject(db(), marie, project('Des semences à Louga', { active: false }));
    const previewed = (await previewProjects(db(), hidden.id, 'fr'))!.map((x) => x.title);
    expect(previewed).toContain('Des semences à Louga');
    expect(previewed).toContain('Un jardin à Mbour');
    expect(await previewProjects(db(), 'no-such-project', 'fr')).toBeUndefined();
  });

  it('a scheduled publication happens once when due, and shows a hidden project', async () => {
    const input = project('Une cantine à Diourbel', { active: false });
    const p = await createProject(db(), marie, input);
    const due = new Date('2032-03-01T08:00:00Z');
    await saveDraft(db(), projectEditable, p.id, { snapshot: { ...input, status: 'Planifié' }, version: p.version, draftSavedAt: '', publishAt: due.toISOString() }, marie);
    expect((await scheduledFor(db(), 'project', [p.id])).get(p.id)).toBe(due.toISOString());
    const editables = (type: string) => (type === projectEditable.type ? projectEditable : undefined);

    expect(await publishDue(db(), editables, new Date(due.getTime() - 1000))).toEqual([]);
    expect((await projectsPage('', { lang: 'fr' })).html).not.toContain('Une cantine à Diourbel');
    const runs = await Promise.all([publishDue(db(), editables, due), publishDue(db(), editables, due)]);
    expect(runs.flat()).toEqual([{ type: 'project', id: p.id }]);
    expect(await publishDue(db(), editables, due)).toEqual([]);
    // What the job (runScheduledPublishing) does after publishing: public pages drop what they remembered.
    await contentChanged();

    const live = (await getProject(db(), p.id))!;
    expect([live.active, live.status, live.version]).toEqual([true, 'Planifié', p.version + 1]);
    expect((await projectsPage('', { lang: 'fr' })).html).toContain('Une cantine à Diourbel');
    expect((await scheduledFor(db(), 'project', [p.id])).size).toBe(0);
    expect((await listRevisions(db(), { type: 'project', id: p.id })).filter((r) => r.kind === 'publish')).toHaveLength(1);
  });
});
