import { afterAll, beforeAll, expect, it } from 'vitest';
import { getLetter } from '~/domain/letters/letters.server';
import { runtime } from '~/lib/runtime.server';
import { action as letterAction, loader as letterPage } from '~/routes/letters/admin-letter';
import { action as lettersAction, loader as lettersPage } from '~/routes/letters/admin-letters';
import { action as newLetter } from '~/routes/letters/admin-new';
import { loader as preview } from '~/routes/letters/admin-preview';
import { action as rateAction, loader as ratePage } from '~/routes/letters/admin-rate';
import { loader as dnsPage } from '~/routes/letters/admin-dns';
import { action as historyAction, loader as historyPage } from '~/routes/admin/editorial/history';
import { action as senderAction, loader as senderPage } from '~/routes/letters/admin-sender';
import { describeEachDialect } from '../support/db';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'letter-routes-'.padEnd(48, 'l');
const ORIGIN = 'https://fondation.example.org';

/**
 * The letters' back office as React Router calls it: an Éditeur makes a letter from a published
 * post (fr, en, es), previews it, tries it on herself, sends it (the request only queues it); a
 * bad form says what is wrong; the sending rate is the Admin's.
 */
describeEachDialect('letters in the back office, through their routes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let editor = '';
  let admin = '';
  const db = () => runtime().db;
  const jobs = process.env.THV_RUN_JOBS;
  beforeAll(async () => {
    // The background sending is tested in letters-queue.test.ts; here nothing sends behind the routes' back.
    process.env.THV_RUN_JOBS = '0';
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada', email: 'ada@fondation.example.org', role: 'Admin' });
  });
  afterAll(async () => {
    await app?.stop();
    if (jobs === undefined) delete process.env.THV_RUN_JOBS;
    else process.env.THV_RUN_JOBS = jobs;
  });

  async function call(route: (args: never) => unknown, path: string, cookie: string, body?: Record<string, string>, params: Record<string, string> = {}) {
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const location = (r: unknown) => (r as Response).headers.get('Location') ?? '';

  it('makes a letter from a published post in its languages, previews it, tries it, sends it in the background', async () => {
    const list = (await call(lettersPage, '/admin/lettres', editor)) as { posts: { id: string; title: string }[]; isAdmin: boolean };
    expect(list.isAdmin).toBe(false);
    const post = list.posts[0];
    const made = await call(lettersAction, '/admin/lettres', editor, { postId: post.id });
    const id = /\/admin\/lettres\/([\w-]+)\?ok=created$/.exec(location(made))![1];
    const letter = (await getLetter(db(), id))!;
    expect(letter.versions.fr).toMatchObject({ subject: post.title, link: `/blog/${post.id}` });
    expect(Object.keys(letter.versions).sort()).toEqual(['en', 'es', 'fr']);
    expect(letter.versions.en!.subject).not.toBe(letter.versions.fr.subject);

    const html = (await call(preview, `/admin/lettres/${id}/apercu/en`, editor, undefined, { id, lang: 'en' })) as Response;
    expect(html.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    const page = await html.text();
    expect(page).toContain(letter.versions.en!.subject.replace(/’/g, '’'));
    expect(page).toContain(`${ORIGIN}/en/blog/${post.id}`);
    expect(page).toContain('Unsubscribe');

    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'test', testLang: 'es' }, { id }))).toBe(`/admin/lettres/${id}?ok=test`);
    const trial = await db().selectFrom('mail_outbox').selectAll().where('to', '=', 'eva@fondation.example.org').executeTakeFirstOrThrow();
    expect(trial.subject).toBe(`[Essai] ${letter.versions.es!.subject}`);

    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'send', version: String(letter.version) }, { id }))).toBe(`/admin/lettres/${id}?ok=sending`);
    expect((await getLetter(db(), id))?.status).toBe('sending');
    // Once sending, the letter cannot be changed nor sent again.
    const again = answer(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'send' }, { id }));
    expect(again).toMatchObject({ status: 409, body: { error: 'Cette lettre est déjà en cours d’envoi ou envoyée.' } });
    const state = (await call(letterPage, `/admin/lettres/${id}`, editor, undefined, { id })) as { counts: Record<string, number> };
    expect(state.counts).toBeDefined();
    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'pause' }, { id }))).toBe(`/admin/lettres/${id}?ok=paused`);
    expect((await getLetter(db(), id))?.pauseReason).toBe('Mise en pause par Éva.');
    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'resume' }, { id }))).toBe(`/admin/lettres/${id}?ok=resumed`);
  });

  it('refuses a letter without its French version, a past schedule, and lets only an Admin set the rate', async () => {
    const bad = answer(await call(newLetter, '/admin/lettres/nouvelle', editor, { 'fr.subject': '', 'fr.body': '', 'en.subject': 'Hello', 'en.body': '', 'fr.link': 'javascript:alert(1)', audienceLanguage: '', audienceSource: '' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({
      'fr.subject': 'L’objet en français est obligatoire.',
      'fr.body': 'Le texte en français est obligatoire.',
      'fr.link': 'Un chemin du site (/blog/…) ou une adresse https://.',
      'en.body': 'Écrivez le texte de cette version, ou videz son objet.',
    });
    const made = await call(newLetter, '/admin/lettres/nouvelle', editor, { 'fr.subject': 'Objet', 'fr.body': 'Texte', audienceLanguage: 'es', audienceSource: 'donor' });
    const id = /\/admin\/lettres\/([\w-]+)\?ok=created$/.exec(location(made))![1];
    expect((await getLetter(db(), id))?.audience).toEqual({ language: 'es', source: 'donor', segment: '' });
    // A donors' segment as the audience (ADR 040): one that exists is kept, another is refused by the server.
    const unknown = answer(await call(newLetter, '/admin/lettres/nouvelle', editor, { 'fr.subject': 'Objet', 'fr.body': 'Texte', audienceLanguage: '', audienceSource: '', audienceSegment: 'inconnu' }));
    expect(unknown).toMatchObject({ status: 400, body: { errors: { audienceSegment: 'Ce segment n’existe pas ou plus : choisissez-en un dans la liste.' } } });
    const toLapsed = await call(newLetter, '/admin/lettres/nouvelle', editor, { 'fr.subject': 'Objet', 'fr.body': 'Texte', audienceLanguage: '', audienceSource: '', audienceSegment: 'perdus-an-dernier' });
    const lapsedId = /\/admin\/lettres\/([\w-]+)\?ok=created$/.exec(location(toLapsed))![1];
    expect((await getLetter(db(), lapsedId))?.audience).toEqual({ language: '', source: '', segment: 'perdus-an-dernier' });
    const past = answer(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'schedule', scheduledAt: '2020-01-01T10:00' }, { id }));
    expect(past).toMatchObject({ status: 400, body: { error: 'Cette date est passée : choisissez un moment à venir.' } });
    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'schedule', scheduledAt: '2099-01-01T10:00' }, { id }))).toBe(`/admin/lettres/${id}?ok=scheduled`);
    expect(await getLetter(db(), id)).toMatchObject({ status: 'scheduled', scheduledAt: '2099-01-01T10:00:00.000Z' });

    expect(answer(await call(ratePage, '/admin/lettres/rythme', editor)).status).toBe(403);
    expect(answer(await call(rateAction, '/admin/lettres/rythme', admin, { perSecond: '0', perHour: 'x' })).body.errors).toEqual({ perSecond: 'Au moins 1.', perHour: 'Un nombre entier.' });
    expect(location(await call(rateAction, '/admin/lettres/rythme', admin, { perSecond: '50', perHour: '20000' }))).toBe('/admin/lettres/rythme?ok=1');
    expect(((await call(ratePage, '/admin/lettres/rythme', admin)) as { rate: unknown }).rate).toEqual({ perSecond: 50, perHour: 20000 });
  });

  it('lets an Admin set the letters’ sender, validated, audited, never over someone else’s save; the DNS check reads its domain', async () => {
    expect(answer(await call(senderPage, '/admin/lettres/expediteur', editor)).status).toBe(403);
    expect(answer(await call(senderAction, '/admin/lettres/expediteur', editor, { name: 'X', email: 'x@y.org', unsubscribeMailbox: '', version: '0' })).status).toBe(403);
    const before = (await call(senderPage, '/admin/lettres/expediteur', admin)) as { sender: unknown; version: number; mailFrom: string };
    expect(before).toMatchObject({ sender: undefined, version: 0 });
    // Unset: the DNS check reads MAIL_FROM's domain (the no-reply of PUBLIC_URL here).
    expect(((await call(dnsPage, '/admin/lettres/dns', admin)) as { domain: string }).domain).toBe('fondation.example.org');

    const bad = answer(await call(senderAction, '/admin/lettres/expediteur', admin, { name: 'Fondation "THV"', email: 'pas-une-adresse', unsubscribeMailbox: 'non', version: '0' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: 'Sans guillemets, chevrons ni barre oblique inverse.',
      email: 'Une adresse électronique valide, par exemple lettres@fondation-thv.org.',
      unsubscribeMailbox: 'Une adresse électronique valide, par exemple lettres@fondation-thv.org.',
    });
    const good = { name: 'Fondation THV — Nouvelles', email: 'nouvelles@lettres.fondation-thv.org', unsubscribeMailbox: 'desabonnement@lettres.fondation-thv.org' };
    expect(location(await call(senderAction, '/admin/lettres/expediteur', admin, { ...good, version: '0' }))).toBe('/admin/lettres/expediteur?ok=1');
    expect(((await call(senderPage, '/admin/lettres/expediteur', admin)) as { sender: unknown; version: number })).toMatchObject({ sender: good, version: 1 });
    // A form opened at version 0 and sent after that save is refused; nothing changes.
    const stale = answer(await call(senderAction, '/admin/lettres/expediteur', admin, { ...good, email: 'autre@exemple.org', version: '0' }));
    expect(stale).toMatchObject({ status: 409, body: { conflict: true } });
    expect(((await call(senderPage, '/admin/lettres/expediteur', admin)) as { sender: { email: string } }).sender.email).toBe(good.email);
    const audited = await db().selectFrom('audit_log').select(['user_name', 'details']).where('action', '=', 'letter.sender').execute();
    expect(audited).toHaveLength(1);
    expect(audited[0].user_name).toBe('Ada');
    expect(JSON.parse(audited[0].details)).toMatchObject({ from: null, to: good.email });

    expect(((await call(dnsPage, '/admin/lettres/dns', admin)) as { domain: string; from: string })).toMatchObject({ domain: 'lettres.fondation-thv.org', from: `"${good.name}" <${good.email}>` });
  });

  it('keeps a revision of each save, refuses a stale form (save or send) saying who saved, and restores from the history', async () => {
    const form = (subject: string, version: number) => ({ intent: 'save', version: String(version), 'fr.subject': subject, 'fr.body': 'Texte', audienceLanguage: '', audienceSource: '' });
    const made = await call(newLetter, '/admin/lettres/nouvelle', editor, { 'fr.subject': 'Première', 'fr.body': 'Texte', audienceLanguage: '', audienceSource: '' });
    const id = /\/admin\/lettres\/([\w-]+)\?ok=created$/.exec(location(made))![1];
    const opened = (await getLetter(db(), id))!.version;
    // Ada saves from her page; Éva's page, opened before, still shows the first version.
    expect(location(await call(letterAction, `/admin/lettres/${id}`, admin, form('Par Ada', opened), { id }))).toBe(`/admin/lettres/${id}?ok=saved`);
    const stale = answer(await call(letterAction, `/admin/lettres/${id}`, editor, form('Par Éva', opened), { id }));
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('Cette lettre a été modifiée entre-temps (par Ada à l\'instant) : rien n’a été enregistré. Rechargez la page pour voir sa dernière version.');
    expect((stale.body.typed as { versions: { fr: { subject: string } } }).versions.fr.subject).toBe('Par Éva');
    expect((await getLetter(db(), id))!.versions.fr.subject).toBe('Par Ada');
    // Nor may her stale page send what she never saw.
    expect(answer(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'send', version: String(opened) }, { id })).status).toBe(409);
    expect((await getLetter(db(), id))!.status).toBe('draft');

    const history = (await call(historyPage, `/admin/lettres/${id}/historique`, editor)) as { revisions: { number: number; kind: string; authorName: string; changed: string }[]; version: number };
    expect(history.revisions.map((r) => [r.kind, r.authorName, r.changed])).toEqual([
      ['save', 'Ada', 'Objet'],
      ['create', 'Éva', 'Première version'],
    ]);
    const restored = await call(historyAction, `/admin/lettres/${id}/historique`, editor, { number: String(history.revisions[1].number), version: String(history.version) });
    expect(restored).toMatchObject({ ok: true });
    expect((await getLetter(db(), id))!.versions.fr.subject).toBe('Première');

    // Once sending, neither a save nor a restore changes it.
    const now = (await getLetter(db(), id))!.version;
    expect(location(await call(letterAction, `/admin/lettres/${id}`, editor, { intent: 'send', version: String(now) }, { id }))).toBe(`/admin/lettres/${id}?ok=sending`);
    expect(answer(await call(letterAction, `/admin/lettres/${id}`, editor, form('Trop tard', now), { id })).body.error).toBe('L’envoi a commencé : la lettre ne peut plus être modifiée.');
    expect(answer(await call(historyAction, `/admin/lettres/${id}/historique`, editor, { number: '1', version: String(now) })).status).toBe(409);
    expect((await getLetter(db(), id))!.versions.fr.subject).toBe('Première');
  });
});
