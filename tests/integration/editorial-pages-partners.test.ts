import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageEditable } from '~/domain/content/editable.server';
import { findManagedPage, type PageId } from '~/domain/content/pages';
import { getEditablePage } from '~/domain/content/pages.server';
import { partnerEditable } from '~/domain/partners/editable.server';
import { getPartner } from '~/domain/partners/partners.server';
import { utcToParisLocal, type EntityRef } from '~/domain/revisions/editorial';
import { previewToken } from '~/domain/revisions/preview.server';
import { editableAt } from '~/domain/revisions/registry.server';
import { getDraft } from '~/domain/revisions/workflow.server';
import { runScheduledPublishing } from '~/domain/revisions/schedule.server';
import { runtime } from '~/lib/runtime.server';
import { action as pageEditAction, loader as pageEditLoader } from '~/routes/admin/content/page-edit';
import { action as partnerEditAction } from '~/routes/admin/content/partner-edit';
import { loader as pagesLoader } from '~/routes/admin/content/pages';
import { loader as partnersListLoader } from '~/routes/admin/content/partners';
import { action as autosaveAction } from '~/routes/admin/editorial/autosave';
import { loader as aboutLoader } from '~/routes/site/about';
import { loader as homeLoader } from '~/routes/site/home';
import { loader as partnersLoader } from '~/routes/site/partners';
import { loader as termsLoader } from '~/routes/site/terms';
import { describeEachDialect } from '../support/db';
import { routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'pages-partners-drafts-'.padEnd(48, 'p');
const ORIGIN = 'https://fondation.example.org';

type Loader = (args: never) => Promise<unknown>;

/**
 * Managed pages and partners in the editorial workflow (ADR 015), through their routes as React
 * Router calls them: the editor's form saves a draft, the public routes keep showing the published
 * content to visitors (and to an invalid or foreign preview link), "Aperçu" shows the draft only
 * to an editor or a signed link, "Publier" and the scheduling job make it public.
 */
describeEachDialect('drafts of pages and partners on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let editor = '';
  const db = () => runtime().db;

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    editor = await sessionCookie(db(), { id: 'u-eric', name: 'Éric Éditeur', email: 'eric@example.org' });
  });
  afterAll(() => app?.stop());

  /** GET of a public page through its loader: what it renders, and the headers it sends. */
  async function visit(loader: Loader, path: string, cookie?: string) {
    const request = new Request(`${ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
    const result = (await loader({ request, context: routeContext(), params: {} } as never)) as { data: Record<string, unknown>; init?: ResponseInit };
    return { data: result.data, headers: new Headers(result.init?.headers) };
  }

  /** POST of an editor's form to an admin action; answers its toast or errors. */
  async function post(action: Loader, path: string, params: Record<string, string>, form: Record<string, string>) {
    const request = new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { Cookie: editor, Origin: ORIGIN }, body: new URLSearchParams(form) });
    const result = (await action({ request, context: routeContext(), params } as never)) as { data?: Record<string, unknown>; init?: ResponseInit } & Record<string, unknown>;
    const body = (result.data ?? result) as { toast?: { title: string } | null; errors?: Record<string, string> };
    return { status: result.init?.status ?? 200, toast: body.toast?.title, errors: body.errors };
  }

  /** A page's edit form as the editor opens it: every field, the version, the draft's time. */
  async function pageForm(pageId: PageId, change: Record<string, string>): Promise<Record<string, string>> {
    const request = new Request(`${ORIGIN}/admin/pages/edit/${pageId}`, { headers: { Cookie: editor } });
    const loaded = (await pageEditLoader({ request, context: routeContext(), params: { pageId } } as never)) as { version: number; values: Record<string, string>; editorial: { draft: { savedAt: string } | null } };
    return { ...loaded.values, ...change, version: String(loaded.version), draftSavedAt: loaded.editorial.draft?.savedAt ?? '' };
  }

  const signed = (ref: EntityRef) => previewToken(runtime().secret, ref);

  /** The back office's list (pages or partners): each row's id and "Programmé pour le …" date. */
  async function listed(loader: Loader, path: string) {
    const request = new Request(`${ORIGIN}${path}`, { headers: { Cookie: editor } });
    const result = (await loader({ request, context: routeContext(), params: {} } as never)) as { pages?: { id: string; scheduledFor: string | null }[]; list?: { items: { id: string; scheduledFor: string | null }[] } };
    return new Map((result.pages ?? result.list!.items).map((r) => [r.id, r.scheduledFor]));
  }

  it('a page’s draft stays off its public route until "Publier"; "Aperçu" shows it, in any language, only to those allowed', async () => {
    const before = (await visit(aboutLoader, '/a-propos?lng=es')).data.title;
    expect(before).toBeTruthy();
    const form = await pageForm('about', { 'es.title': 'Borrador secreto', 'fr.content': '<p>Texte <strong>nouveau</strong></p><script>alert(1)</script>' });
    expect(await post(pageEditAction, '/admin/pages/edit/about', { pageId: 'about' }, { ...form, intent: 'draft' })).toMatchObject({ toast: 'Brouillon enregistré' });
    // The live row is untouched.
    expect((await getEditablePage(db(), 'about')).version).toBe(Number(form.version));

    // Visitors, with or without a query string, and a preview asked for without rights.
    const anonymous = await visit(aboutLoader, '/a-propos?lng=es');
    expect(anonymous.data).toMatchObject({ title: before, preview: false });
    expect(anonymous.headers.get('Cache-Control')).toBeNull();
    const refused = await visit(aboutLoader, '/a-propos?lng=es&apercu=1');
    expect(refused.data).toMatchObject({ title: before, preview: false });
    expect(refused.headers.get('Cache-Control')).toBe('private, no-store');
    // Another page's link, or a forged one, is no key to this page.
    expect((await visit(aboutLoader, `/a-propos?lng=es&apercu=${signed({ type: 'page', id: 'missions' })}`)).data).toMatchObject({ title: before, preview: false });
    expect((await visit(aboutLoader, `/a-propos?lng=es&apercu=${signed({ type: 'page', id: 'about' }).replace(/^\d+\./, '1.')}`)).data).toMatchObject({ title: before, preview: false });

    // The editor, and a colleague holding the signed link, see the draft in the real template.
    const mine = await visit(aboutLoader, '/a-propos?lng=es&apercu=1', editor);
    expect(mine.data).toMatchObject({ title: 'Borrador secreto', preview: true });
    expect(mine.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
    const shared = await visit(aboutLoader, `/a-propos?lng=fr&apercu=${signed({ type: 'page', id: 'about' })}`);
    expect(shared.data.preview).toBe(true);
    // Sanitized like a save: the draft never carries a script.
    expect(shared.data.content).toContain('<strong>nouveau</strong>');
    expect(shared.data.content).not.toContain('script');
    // The editor's form continues the draft.
    expect((await pageForm('about', {}))['es.title']).toBe('Borrador secreto');

    const ready = await pageForm('about', {});
    expect(await post(pageEditAction, '/admin/pages/edit/about', { pageId: 'about' }, { ...ready, intent: 'publish' })).toMatchObject({ toast: 'Contenu sauvegardé !' });
    expect((await visit(aboutLoader, '/a-propos?lng=es')).data).toMatchObject({ title: 'Borrador secreto', preview: false });
    const stored = await getEditablePage(db(), 'about');
    expect(stored.texts.fr.content).toBe('<p>Texte <strong>nouveau</strong></p>');
    expect(await getDraft(db(), { type: 'page', id: 'about' })).toBeUndefined();
  });

  it('a stale form cannot overwrite a draft, and "Abandonner le brouillon" leaves the page as published', async () => {
    const opened = await pageForm('home', {});
    const title = (await visit(homeLoader, '/?lng=en')).data.heroTitle;
    expect(await post(pageEditAction, '/admin/pages/edit/home', { pageId: 'home' }, { ...opened, 'en.heroTitle': 'First draft' })).toMatchObject({ toast: 'Brouillon enregistré' });
    // The same form, opened before that draft, is refused (it would overwrite it unseen).
    expect(await post(pageEditAction, '/admin/pages/edit/home', { pageId: 'home' }, { ...opened, 'en.heroTitle': 'Second draft' })).toMatchObject({ status: 409 });
    expect((await visit(homeLoader, '/?lng=en&apercu=1', editor)).data).toMatchObject({ heroTitle: 'First draft', preview: true });
    // "Abandonner" from the stale form is refused too; from a form showing the draft, it discards it.
    expect(await post(pageEditAction, '/admin/pages/edit/home', { pageId: 'home' }, { ...opened, intent: 'discard' })).toMatchObject({ status: 409 });
    expect(await post(pageEditAction, '/admin/pages/edit/home', { pageId: 'home' }, { ...(await pageForm('home', {})), intent: 'discard' })).toMatchObject({ toast: 'Brouillon abandonné' });
    expect((await visit(homeLoader, '/?lng=en&apercu=1', editor)).data).toMatchObject({ heroTitle: title, preview: true });
    expect((await visit(homeLoader, '/?lng=en')).data).toMatchObject({ heroTitle: title, preview: false });
  });

  it('a page scheduled for a date is published by the job then, not before', async () => {
    const title = (await visit(termsLoader, '/mentions-legales?lng=fr')).data.title;
    const at = new Date(Date.now() + 3_600_000);
    const form = await pageForm('terms', { 'fr.title': 'Mentions légales 2027', publishAt: utcToParisLocal(at.toISOString()) });
    expect(await post(pageEditAction, '/admin/pages/edit/terms', { pageId: 'terms' }, { ...form, intent: 'schedule' })).toMatchObject({ toast: 'Publication programmée' });
    // A date already past is refused.
    const late = await pageForm('terms', { publishAt: utcToParisLocal(new Date(Date.now() - 60_000).toISOString()) });
    expect((await post(pageEditAction, '/admin/pages/edit/terms', { pageId: 'terms' }, { ...late, intent: 'schedule' })).errors?.publishAt).toMatch(/à venir/);
    // The list says when.
    const rows = await listed(pagesLoader, '/admin/pages');
    expect(rows.get('terms')).toMatch(/\d{4}/);
    expect(rows.get('privacy')).toBeNull();

    expect(await runScheduledPublishing(new Date(at.getTime() - 60_000))).toBe(0);
    expect((await visit(termsLoader, '/mentions-legales?lng=fr')).data.title).toBe(title);
    expect(await runScheduledPublishing(new Date(at.getTime() + 60_000))).toBe(1);
    expect((await visit(termsLoader, '/mentions-legales?lng=fr')).data.title).toBe('Mentions légales 2027');
  });

  it('a partner’s draft is shown in its place on /partenaires only in a preview, until "Publier" or its date', async () => {
    const [first, second] = (await visit(partnersLoader, '/partenaires')).data.partners as { id: string; name: string; website: string }[];
    const live = (await getPartner(db(), first.id))!;
    const path = `/admin/partners/${first.id}`;
    const form = { name: 'Nom en préparation', logoUrl: live.logoUrl, website: 'https://prepare.example', version: String(live.version), draftSavedAt: '' };
    expect(await post(partnerEditAction, path, { id: first.id }, { ...form, intent: 'draft' })).toMatchObject({ toast: 'Brouillon enregistré' });
    // The schema applies to drafts too.
    expect((await post(partnerEditAction, path, { id: first.id }, { ...form, website: 'javascript:alert(1)' })).errors?.website).toBeTruthy();

    const names = async (query: string, cookie?: string) => {
      const page = await visit(partnersLoader, `/partenaires${query}`, cookie);
      return { preview: page.data.preview, names: (page.data.partners as { name: string }[]).map((p) => p.name) };
    };
    expect(await names('')).toMatchObject({ preview: false, names: expect.arrayContaining([first.name, second.name]) });
    expect((await names('')).names).not.toContain('Nom en préparation');
    expect(await names(`?partenaire=${first.id}&apercu=1`)).toMatchObject({ preview: false, names: expect.not.arrayContaining(['Nom en préparation']) });
    expect(await names(`?partenaire=${first.id}&apercu=${signed({ type: 'partner', id: second.id })}`)).toMatchObject({ preview: false });
    // In a preview, the draft stands where the partner is, the others as they are.
    const previewed = await names(`?partenaire=${first.id}&apercu=${signed({ type: 'partner', id: first.id })}&lng=es`);
    expect(previewed).toMatchObject({ preview: true });
    expect(previewed.names.indexOf('Nom en préparation')).toBe((await names('')).names.indexOf(first.name));
    expect(previewed.names).toContain(second.name);
    expect(partnerEditable.publicPath!(first.id, {})).toBe(`/partenaires?partenaire=${first.id}`);

    const draft = (await getDraft(db(), { type: 'partner', id: first.id }))!;
    expect(await post(partnerEditAction, path, { id: first.id }, { ...form, draftSavedAt: draft.savedAt, intent: 'publish' })).toMatchObject({ toast: 'Partenaire modifié !' });
    expect((await names('')).names).toContain('Nom en préparation');

    // Scheduled: published by the job at its date.
    const now = (await getPartner(db(), second.id))!;
    const at = new Date(Date.now() + 7_200_000);
    const later = { name: 'Partenaire programmé', logoUrl: now.logoUrl, website: now.website, version: String(now.version), draftSavedAt: '', publishAt: utcToParisLocal(at.toISOString()) };
    expect(await post(partnerEditAction, `/admin/partners/${second.id}`, { id: second.id }, { ...later, intent: 'schedule' })).toMatchObject({ toast: 'Publication programmée' });
    expect((await names('')).names).not.toContain('Partenaire programmé');
    expect((await listed(partnersListLoader, '/admin/partners')).get(second.id)).toMatch(/\d{4}/);
    expect(await runScheduledPublishing(new Date(at.getTime() + 60_000))).toBe(1);
    expect((await names('')).names).toContain('Partenaire programmé');
  });

  describe('autosave', () => {
    it('finds pages and partners by their editors’ paths, and keeps the copy, never the item', async () => {
      expect(editableAt('/admin/pages/edit/missions/autosave')).toEqual({ ed: pageEditable, id: 'missions' });
      expect(editableAt('/admin/partners/42/autosave')).toEqual({ ed: partnerEditable, id: '42' });
      // The editor opens the page (their autosave row starts then).
      const version = Number((await pageForm('missions', {})).version);
      const request = new Request(`${ORIGIN}/admin/pages/edit/missions/autosave`, {
        method: 'POST',
        headers: { Cookie: editor, Origin: ORIGIN },
        body: new URLSearchParams({ version: String(version), seq: '0', 'fr.title': 'Tapé, pas enregistré' }),
      });
      const answer = (await autosaveAction({ request, context: routeContext(), params: { id: 'missions' } } as never)) as unknown as { data: { ok: boolean; seq: number } };
      expect(answer.data).toMatchObject({ ok: true, seq: 1 });
      expect((await getEditablePage(db(), 'missions')).version).toBe(version);
      expect(findManagedPage('missions')).toBeDefined();
    });
  });
});
