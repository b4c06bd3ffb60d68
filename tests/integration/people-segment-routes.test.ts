import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLetter } from '~/domain/letters/letters.server';
import { getSegment } from '~/domain/people/segments.server';
import { runtime } from '~/lib/runtime.server';
import { loader as listPage } from '~/routes/people/admin-list';
import { action as segmentAction, loader as segmentPage } from '~/routes/people/admin-segment';
import { loader as csvExport } from '~/routes/people/admin-segment-csv';
import { action as segmentsAction, loader as segmentsPage } from '~/routes/people/admin-segments';
import { describeEachDialect } from '../support/db';
import { gift } from '../support/people';
import { routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'segment-routes-'.padEnd(48, 's');
const ORIGIN = 'https://fondation.example.org';

/**
 * The segments' screens as React Router calls them (ADR 040): an Éditeur reads the segments and a
 * segment's list; an Admin writes a segment (a bad form refused field by field), sets the major
 * donors' threshold, exports a segment as CSV; a segment a waiting letter goes to is not deleted.
 */
describeEachDialect('segments of the donors register, through their routes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let editor = '';
  let admin = '';
  const db = () => runtime().db;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada', email: 'ada@fondation.example.org', role: 'Admin' });
    const year = new Date().getUTCFullYear();
    await gift(db(), 'g1', 'lea@example.org', `${year - 1}-03-01T10:00:00.000Z`, { donor_name: 'Léa', eur_cents: 150_000 });
    await gift(db(), 'g2', 'nina@example.org', `${year}-01-02T10:00:00.000Z`, { donor_name: 'Nina', eur_cents: 2000 });
  });
  afterAll(async () => app?.stop());

  async function call(route: (args: never) => unknown, path: string, cookie: string, body?: [string, string][], params: Record<string, string> = {}) {
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const status = (r: unknown) => (r instanceof Response ? r.status : (r as { init?: { status?: number } }).init?.status ?? 200);
  const body = <T,>(r: unknown) => (r as { data: T }).data;

  it('an Éditeur reads the segments and a segment’s list, writes and exports none', async () => {
    const page = (await call(segmentsPage, '/admin/donateurs/segments', editor)) as { admin: boolean; segments: { id: string; count: number }[] };
    expect(page.admin).toBe(false);
    expect(page.segments.find((s) => s.id === 'perdus-an-dernier')?.count).toBe(1);
    expect(page.segments.find((s) => s.id === 'grands')?.count).toBe(1);
    const list = (await call(listPage, '/admin/donateurs?segment=perdus-an-dernier', editor)) as { total: number; segmentName: string; rows: { name: string }[] };
    expect(list).toMatchObject({ total: 1, segmentName: 'Perdus de l’an dernier', rows: [{ name: 'Léa' }] });
    expect(status(await call(listPage, '/admin/donateurs?segment=inconnu', editor))).toBe(404);
    expect(status(await call(segmentAction, '/admin/donateurs/segments/nouveau', editor, [['name', 'X']], { segmentId: 'nouveau' }))).toBe(403);
    expect(status(await call(csvExport, '/admin/donateurs/segments/perdus/csv', editor, undefined, { segmentId: 'perdus' }))).toBe(403);
    expect(status(await call(segmentsAction, '/admin/donateurs/segments', editor, [['intent', 'threshold'], ['threshold', '10']]))).toBe(403);
  });

  it('an Admin writes a segment, sets the threshold, exports a segment; a segment a waiting letter goes to stays', async () => {
    expect(status(await call(segmentPage, '/admin/donateurs/segments/grands', admin, undefined, { segmentId: 'grands' }))).toBe(404);
    const bad = await call(segmentAction, '/admin/donateurs/segments/nouveau', admin, [['name', ''], ['totalMin', 'cent'], ['campaignId', 'inconnue']], { segmentId: 'nouveau' });
    expect(status(bad)).toBe(400);
    expect(body<{ errors: Record<string, string> }>(bad).errors).toEqual({ name: 'Donnez un nom au segment.', totalMin: 'Un montant en euros, par exemple 50 ou 12,50.' });
    const unknownCampaign = await call(segmentAction, '/admin/donateurs/segments/nouveau', admin, [['name', 'Campagne'], ['campaignId', 'inconnue']], { segmentId: 'nouveau' });
    expect(body<{ errors: Record<string, string> }>(unknownCampaign).errors).toEqual({ campaignId: 'Choisissez une campagne de la liste.' });
    const made = (await call(segmentAction, '/admin/donateurs/segments/nouveau', admin, [['name', 'Fidèles'], ['totalMin', '20'], ['giftsMin', '1']], { segmentId: 'nouveau' })) as Response;
    const id = /\/admin\/donateurs\?segment=([\w-]+)$/.exec(made.headers.get('Location') ?? '')![1];
    expect(await getSegment(db(), id)).toMatchObject({ name: 'Fidèles', rules: { totalMin: 2000, giftsMin: 1 } });

    expect(status(await call(segmentsAction, '/admin/donateurs/segments', admin, [['intent', 'threshold'], ['threshold', '0,50']]))).toBe(400);
    expect(await call(segmentsAction, '/admin/donateurs/segments', admin, [['intent', 'threshold'], ['threshold', '2 000']])).toEqual({ error: '', done: 'Seuil des grands donateurs enregistré.' });
    const after = (await call(segmentsPage, '/admin/donateurs/segments', admin)) as { threshold: string; segments: { id: string; count: number }[] };
    expect(after.threshold).toBe('2000');
    expect(after.segments.find((s) => s.id === 'grands')?.count).toBe(0);

    const csv = (await call(csvExport, `/admin/donateurs/segments/${id}/csv`, admin, undefined, { segmentId: id })) as Response;
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // UTF-8 with its byte-order mark, so that a spreadsheet opens the accents right.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).split('\r\n');
    expect(lines[0].startsWith('"Nom";"E-mail";"Code postal";"Langue"')).toBe(true);
    expect(lines.slice(1, -1).map((l) => l.split(';')[1])).toEqual(['"lea@example.org"', '"nina@example.org"']);

    await createLetter(db(), { id: 'a1', name: 'Ada' }, { fr: { subject: 'Merci', body: 'Bonjour', link: '', image: '' } }, { language: '', source: '', segment: id });
    const refused = await call(segmentsAction, '/admin/donateurs/segments', admin, [['intent', 'delete'], ['segment_id', id]]);
    expect(status(refused)).toBe(409);
    expect(body<{ error: string }>(refused).error).toBe('Ce segment est le destinataire de lettres pas encore envoyées (« Merci ») : changez leur destinataire d’abord.');
    expect(await getSegment(db(), id)).toBeDefined();
    await db().updateTable('letters').set({ status: 'sent' }).where('audience_segment', '=', id).execute();
    expect(await call(segmentsAction, '/admin/donateurs/segments', admin, [['intent', 'delete'], ['segment_id', id]])).toEqual({ error: '', done: 'Segment supprimé.' });
    expect(await getSegment(db(), id)).toBeUndefined();
  });
});
