import { expect, test, type APIRequestContext } from '@playwright/test';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { ADMIN_SECTIONS } from '~/domain/users/permissions';
import { campaignInput } from '../../support/campaigns';
import { BOTH_DIALECTS, createAccount, serverForSuite, signInRequest } from './server';

/**
 * Every admin route and action, asked by nobody, by an Éditeur and by an Admin, over plain HTTP:
 * the status each gets is the rule. 'login' is a redirect to the sign-in page.
 */
type Who = 'anonymous' | 'editor' | 'admin';
type Expect = number | 'login' | `→${string}`;
type Row = { method: 'GET' | 'POST'; path: string; form?: Record<string, string> } & Record<Who, Expect>;

/** The content screens (content issue): open to Éditeurs except the site settings. */
const CONTENT_AREAS: string[] = ['pages', 'actions', 'blog', 'partners', 'messages', 'settings'];

function contentRows(): Row[] {
  const rows: Row[] = [
    { method: 'GET', path: '/admin/pages', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/pages/edit/about', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/pages/about', anonymous: 'login', editor: '→/admin/pages/edit/about', admin: '→/admin/pages/edit/about' },
    { method: 'GET', path: '/admin/pages/edit/quelque-chose', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'POST', path: '/admin/pages/edit/about', form: { version: '0', heroImage: 'pas une url' }, anonymous: 'login', editor: 409, admin: 409 },
    { method: 'POST', path: '/admin/pages', form: { x: '1' }, anonymous: 'login', editor: 405, admin: 405 },
    { method: 'GET', path: '/admin/settings', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/settings', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 400 },
    { method: 'GET', path: '/admin/settings/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'POST', path: '/admin/blog', form: { id: 'inconnu', status: 'Publié', version: '1' }, anonymous: 'login', editor: 404, admin: 404 },
  ];
  for (const path of ['/admin/actions', '/admin/blog', '/admin/partners', '/admin/messages']) {
    rows.push(
      { method: 'GET', path, anonymous: 'login', editor: 200, admin: 200 },
      { method: 'GET', path: `${path}/quelque-chose`, anonymous: 'login', editor: 404, admin: 404 },
      { method: 'GET', path: `${path}/quelque-chose/supprimer`, anonymous: 'login', editor: 404, admin: 404 },
      { method: 'POST', path: `${path}/quelque-chose/supprimer`, anonymous: 'login', editor: 404, admin: 404 },
    );
    if (path !== '/admin/messages') {
      rows.push(
        { method: 'GET', path: `${path}/new`, anonymous: 'login', editor: 200, admin: 200 },
        { method: 'POST', path: `${path}/new`, form: { x: '1' }, anonymous: 'login', editor: 400, admin: 400 },
      );
    }
  }
  return rows;
}

/** Campaigns (#16): both roles, with the content screens' list/edit/delete patterns. */
const CAMPAIGN_ROWS: Row[] = [
  { method: 'GET', path: '/admin/campaigns', anonymous: 'login', editor: 200, admin: 200 },
  { method: 'POST', path: '/admin/campaigns', form: { x: '1' }, anonymous: 'login', editor: 405, admin: 405 },
  { method: 'GET', path: '/admin/campaigns/new', anonymous: 'login', editor: 200, admin: 200 },
  { method: 'POST', path: '/admin/campaigns/new', form: { x: '1' }, anonymous: 'login', editor: 400, admin: 400 },
  { method: 'GET', path: '/admin/campaigns/quelque-chose', anonymous: 'login', editor: 404, admin: 404 },
  { method: 'GET', path: '/admin/campaigns/quelque-chose/supprimer', anonymous: 'login', editor: 404, admin: 404 },
  { method: 'POST', path: '/admin/campaigns/quelque-chose/supprimer', anonymous: 'login', editor: 404, admin: 404 },
];

function rows(ids: { editor: string; victim: string; spare: string; campaign: string }): Row[] {
  return [
    { method: 'GET', path: '/admin', anonymous: 'login', editor: '→/admin/dashboard', admin: '→/admin/dashboard' },
    { method: 'GET', path: '/admin/dashboard', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/mon-compte', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'POST', path: '/admin/mon-compte', form: { current: 'faux mot de passe', password: 'nouveau mot de passe', confirm: 'nouveau mot de passe' }, anonymous: 'login', editor: 400, admin: 400 },
    { method: 'GET', path: '/admin/users', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/users/new', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/users/new', form: { name: 'X', email: 'pas-un-email', role: 'Éditeur' }, anonymous: 'login', editor: 403, admin: 400 },
    { method: 'GET', path: `/admin/users/${ids.editor}`, anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/users/inconnu', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'POST', path: `/admin/users/${ids.spare}`, form: { intent: 'save', name: 'Renommé', email: 'spare@example.org', role: 'Éditeur', version: '1' }, anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: `/admin/users/${ids.victim}/supprimer`, anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: `/admin/users/${ids.victim}/supprimer`, anonymous: 'login', editor: 403, admin: '→/admin/users' },
    { method: 'GET', path: '/admin/page-inconnue', anonymous: 'login', editor: 404, admin: 404 },
    // Payments and donations: Admins only.
    { method: 'GET', path: '/admin/payments', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/payments', form: { version: '-1' }, anonymous: 'login', editor: 403, admin: 409 },
    { method: 'GET', path: '/admin/payments/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/donations', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/donations/export.csv', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/donations/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    // Tax receipts: Admins only.
    { method: 'GET', path: '/admin/receipts', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/receipts/export.csv', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/receipts/parametres', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/receipts/parametres', form: { version: '-1' }, anonymous: 'login', editor: 403, admin: 409 },
    { method: 'POST', path: '/admin/receipts', form: { intent: 'cancel', id: 'inconnu', reason: 'x' }, anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/receipts/inconnu/pdf', anonymous: 'login', editor: 403, admin: 404 },
    // Gifts received by post or at the bank (ADR 028): Admins; Éditeurs only when an Admin allows it (not here).
    { method: 'GET', path: '/admin/cheques', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/cheques', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 400 },
    { method: 'GET', path: '/admin/cheques/don', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/cheques/remises/inconnu', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/cheques/remises/inconnu/bordereau.pdf', anonymous: 'login', editor: 403, admin: 404 },
    // Gifts in kind and waived expenses (ADR 030), and their evidence: the same rights.
    { method: 'GET', path: '/admin/cheques/nature', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/cheques/nature', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 400 },
    { method: 'GET', path: '/admin/cheques/nature/inconnu/justificatif', anonymous: 'login', editor: 403, admin: 404 },
    // Mail kept without SMTP (#12): Admins only, nothing to post.
    { method: 'GET', path: '/admin/courriels', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/courriels/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'POST', path: '/admin/courriels', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 405 },
    // Reports (#19): Admins only; a CSV per table, an unknown table is a 404; no action.
    { method: 'GET', path: '/admin/rapports', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/rapports/export.csv?table=moyens', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/rapports/export.csv?table=inconnu', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/rapports/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'POST', path: '/admin/rapports', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 405 },
    // Where the money goes (issue 42, ADR 032): Admins only; a year from 2000 to this one, anything else a 404.
    { method: 'GET', path: '/admin/transparence', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/transparence?annee=2024', anonymous: 'login', editor: 403, admin: '→/admin/transparence/2024' },
    { method: 'POST', path: '/admin/transparence', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 405 },
    { method: 'GET', path: '/admin/transparence/2024', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/transparence/2024', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 409 },
    { method: 'GET', path: '/admin/transparence/1999', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/transparence/quelque-chose', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/comptabilite', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/comptabilite/versements', anonymous: 'login', editor: 403, admin: 200 },
    // Moving in (ADR 036, 037): no provider is set here, so the list of subscriptions to adopt says so.
    { method: 'GET', path: '/admin/dons/abonnements', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/imports', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/imports/inconnu', anonymous: 'login', editor: 403, admin: 404 },
    // The donors register (ADR 038): Éditeurs read it (without addresses); merging is an Admin's.
    { method: 'GET', path: '/admin/donateurs', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/donateurs/doublons', anonymous: 'login', editor: 403, admin: 200 },
    // Segments (ADR 040): Éditeurs read them and their lists; writing them and their CSV (addresses) are an Admin's.
    { method: 'GET', path: '/admin/donateurs/segments', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'POST', path: '/admin/donateurs/segments', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/donateurs?segment=perdus-an-dernier', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/donateurs?segment=inconnu', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/donateurs/segments/nouveau', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/donateurs/segments/nouveau', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 400 },
    { method: 'GET', path: '/admin/donateurs/segments/perdus', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/donateurs/segments/perdus/csv', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'GET', path: '/admin/comptabilite?annee=1999', anonymous: 'login', editor: 403, admin: 404 },
    { method: 'GET', path: '/admin/comptabilite/plan', anonymous: 'login', editor: 403, admin: 200 },
    { method: 'POST', path: '/admin/comptabilite/plan', form: { x: '1' }, anonymous: 'login', editor: 403, admin: 409 },
    { method: 'GET', path: '/admin/comptabilite/fec?annee=2024', anonymous: 'login', editor: 403, admin: 409 },
    { method: 'GET', path: '/admin/comptabilite/journal.csv?annee=2024', anonymous: 'login', editor: 403, admin: 200 },
    // The media library (both roles); a post without files is a 400.
    { method: 'GET', path: '/admin/media', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'POST', path: '/admin/media', form: { x: '1' }, anonymous: 'login', editor: 400, admin: 400 },
    { method: 'GET', path: '/admin/media/quelque-chose', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'POST', path: '/admin/media/televerser', form: { x: '1' }, anonymous: 'login', editor: 400, admin: 400 },
    { method: 'GET', path: '/admin/media/bibliotheque?type=image', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/media/inconnu/supprimer', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'POST', path: '/admin/media/inconnu/supprimer', anonymous: 'login', editor: 404, admin: 404 },
    ...contentRows(),
    // Editorial workflow (issue #17): a post's history and its editor's autosave.
    { method: 'GET', path: '/admin/blog/quelque-chose/historique', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'POST', path: '/admin/blog/quelque-chose/historique', form: { number: '1', version: '1' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'POST', path: '/admin/blog/quelque-chose/autosave', form: { version: '1', seq: '0' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/blog/quelque-chose/autosave', anonymous: 'login', editor: 405, admin: 405 },
    { method: 'GET', path: '/admin/actions/quelque-chose/historique', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/partners/quelque-chose/historique', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/pages/edit/quelque-chose/historique', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/pages/edit/about/historique', anonymous: 'login', editor: 200, admin: 200 },
    // Pages and partners have drafts and autosave too.
    { method: 'POST', path: '/admin/pages/edit/quelque-chose/autosave', form: { version: '1', seq: '0' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/pages/edit/about/autosave', anonymous: 'login', editor: 405, admin: 405 },
    { method: 'POST', path: '/admin/partners/quelque-chose/autosave', form: { version: '1', seq: '0' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/partners/quelque-chose/autosave', anonymous: 'login', editor: 405, admin: 405 },
    // …and projects and campaigns.
    { method: 'POST', path: '/admin/actions/quelque-chose/autosave', form: { version: '1', seq: '0' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/actions/quelque-chose/autosave', anonymous: 'login', editor: 405, admin: 405 },
    { method: 'POST', path: '/admin/campaigns/quelque-chose/autosave', form: { version: '1', seq: '0' }, anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: '/admin/campaigns/quelque-chose/autosave', anonymous: 'login', editor: 405, admin: 405 },
    ...CAMPAIGN_ROWS,
    // Campaigns' history (they joined the editorial workflow's revisions).
    { method: 'GET', path: `/admin/campaigns/${ids.campaign}`, anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/campaigns/quelque-chose/historique', anonymous: 'login', editor: 404, admin: 404 },
    { method: 'GET', path: `/admin/campaigns/${ids.campaign}/historique`, anonymous: 'login', editor: 200, admin: 200 },
    { method: 'POST', path: `/admin/campaigns/${ids.campaign}/historique`, form: { number: '99', version: '1' }, anonymous: 'login', editor: 404, admin: 404 },
    // Membership (issue 32): Éditeurs read the register; its settings are the Admin's.
    { method: 'GET', path: '/admin/adhesions', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/adhesions/assemblee', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/adhesions/parametres', anonymous: 'login', editor: 403, admin: 200 },
    // News by email (issue 33): letters and the subscribers' list, for Admins and Éditeurs.
    { method: 'GET', path: '/admin/lettres', anonymous: 'login', editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/lettres/abonnes', anonymous: 'login', editor: 200, admin: 200 },
    // The sign-in flows are open, and send a signed-in user on.
    { method: 'GET', path: '/admin/login', anonymous: 200, editor: '→/admin/dashboard', admin: '→/admin/dashboard' },
    { method: 'GET', path: '/admin/setup', anonymous: '→/admin/login', editor: '→/admin/login', admin: '→/admin/login' },
    { method: 'GET', path: '/admin/mot-de-passe-oublie', anonymous: 200, editor: 200, admin: 200 },
    { method: 'GET', path: '/admin/invitation/lien-inconnu', anonymous: 410, editor: 410, admin: 410 },
    { method: 'GET', path: '/admin/reinitialiser/lien-inconnu', anonymous: 410, editor: 410, admin: 410 },
    { method: 'POST', path: '/admin/invitation/lien-inconnu', form: { password: 'x'.repeat(12), confirm: 'x'.repeat(12) }, anonymous: 410, editor: 410, admin: 410 },
    { method: 'GET', path: '/admin/logout', anonymous: '→/admin/dashboard', editor: '→/admin/dashboard', admin: '→/admin/dashboard' },
  ];
}

function check(status: number, location: string | undefined, expected: Expect): boolean {
  if (expected === 'login') return status === 302 && /^\/admin\/login(\?|$)/.test(location ?? '');
  if (typeof expected === 'string') return [301, 302, 303].includes(status) && location === expected.slice(1);
  return status === expected;
}

for (const dialect of BOTH_DIALECTS) {
  test.describe(`access rules on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    const server = serverForSuite(dialect);

    test('every admin route and action answers each role as the rules say', async ({ playwright }) => {
      await createAccount(server.db, 'Admin', 'admin@example.org');
      const editor = await createAccount(server.db, 'Éditeur', 'editeur@example.org');
      const victim = await createAccount(server.db, 'Éditeur', 'victim@example.org', 'Victime');
      const spare = await createAccount(server.db, 'Éditeur', 'spare@example.org', 'Spare');
      const saved = await saveCampaign(server.db, { id: null, name: 'Test' }, null, campaignInput('droits-d-acces', { fr: 'Droits d’accès', en: 'Access rights', es: 'Derechos de acceso' }));
      if (!('campaign' in saved)) throw new Error(`campaign not created: ${saved.error}`);
      const clients: Record<Who, APIRequestContext> = {
        anonymous: await playwright.request.newContext(),
        editor: await playwright.request.newContext(),
        admin: await playwright.request.newContext(),
      };
      await signInRequest(clients.editor, server.baseURL, 'editeur@example.org');
      await signInRequest(clients.admin, server.baseURL, 'admin@example.org');

      // Every section of the back office is in the matrix: a section added later needs its rows here.
      const matrix = rows({ editor: editor.id, victim: victim.id, spare: spare.id, campaign: saved.campaign.id });
      expect(ADMIN_SECTIONS.filter((s) => !matrix.some((r) => r.path === s.path)).map((s) => s.path)).toEqual([]);

      const failures: string[] = [];
      // The Admin goes last: its actions (renaming, deleting) must not change what the others see.
      for (const who of ['anonymous', 'editor', 'admin'] as const) {
        for (const row of matrix) {
          const res = await clients[who][row.method === 'GET' ? 'get' : 'post'](`${server.baseURL}${row.path}`, {
            form: row.method === 'POST' ? (row.form ?? {}) : undefined,
            headers: { Origin: server.baseURL },
            maxRedirects: 0,
          });
          const location = res.headers().location;
          if (!check(res.status(), location, row[who])) failures.push(`${who} ${row.method} ${row.path}: ${res.status()} ${location ?? ''} (expected ${row[who]})`);
          if (res.status() === 403) expect(await res.text()).toContain('Accès refusé');
        }
      }
      expect(failures).toEqual([]);
      // What the Admin's actions did, and what the others' did not.
      expect(await server.db.selectFrom('users').select('id').where('id', '=', victim.id).executeTakeFirst()).toBeUndefined();
      expect((await server.db.selectFrom('users').select('name').where('id', '=', spare.id).executeTakeFirstOrThrow()).name).toBe('Renommé');
      for (const c of Object.values(clients)) await c.dispose();
    });

    test('a page seen signed in is never stored for anonymous visitors', async ({ playwright }) => {
      const admin = await playwright.request.newContext();
      await signInRequest(admin, server.baseURL, 'admin@example.org');
      const anonymous = await playwright.request.newContext();
      for (const path of ['/a-propos']) {
        const signedIn = await admin.get(`${server.baseURL}${path}`);
        expect(signedIn.status()).toBe(200);
        // Rendered for a signed-in user: neither served from nor put in the cache.
        expect(signedIn.headers()['x-cache']).toBeUndefined();
        const first = await anonymous.get(`${server.baseURL}${path}`);
        expect(first.headers()['x-cache'], 'the signed-in render was not stored').toBe('MISS');
        expect((await anonymous.get(`${server.baseURL}${path}`)).headers()['x-cache']).toBe('HIT');
        // And a page cached for anonymous visitors is not served to the signed-in user.
        expect((await admin.get(`${server.baseURL}${path}`)).headers()['x-cache']).toBeUndefined();
      }
      await admin.dispose();
      await anonymous.dispose();
    });

    test('a state-changing request from another site is refused, signed in or not', async ({ playwright }) => {
      const admin = await playwright.request.newContext();
      await signInRequest(admin, server.baseURL, 'admin@example.org');
      const attempts: { path: string; form: Record<string, string> }[] = [
        { path: '/admin/users/new', form: { name: 'Pirate', email: 'pirate@example.org', role: 'Admin' } },
        { path: '/admin/logout', form: {} },
        { path: '/admin/login', form: { email: 'admin@example.org', password: 'un mot de passe solide' } },
        { path: '/admin/mot-de-passe-oublie', form: { email: 'admin@example.org' } },
      ];
      for (const { path, form } of attempts) {
        // React Router itself refuses a foreign Origin (400) before our guard would (403).
        const byOrigin = await admin.post(`${server.baseURL}${path}`, { form, headers: { Origin: 'https://pirate.example' }, maxRedirects: 0 });
        expect([400, 403], `${path} with a foreign Origin`).toContain(byOrigin.status());
        const byFetchSite = await admin.post(`${server.baseURL}${path}`, { form, headers: { 'Sec-Fetch-Site': 'cross-site' }, maxRedirects: 0 });
        expect(byFetchSite.status(), `${path} with Sec-Fetch-Site: cross-site`).toBe(403);
      }
      expect(await server.db.selectFrom('users').select('id').where('email', '=', 'pirate@example.org').executeTakeFirst()).toBeUndefined();
      // Still signed in: the forged sign-out did nothing.
      expect((await admin.get(`${server.baseURL}/admin/dashboard`, { maxRedirects: 0 })).status()).toBe(200);
      // The data behind a refused page does not leak through React Router's data requests either.
      const editorClient = await playwright.request.newContext();
      await signInRequest(editorClient, server.baseURL, 'editeur@example.org');
      const data = await editorClient.get(`${server.baseURL}/admin/users.data`, { maxRedirects: 0 });
      expect(await data.text()).not.toContain('admin@example.org');
      await admin.dispose();
      await editorClient.dispose();
    });
  });
}
