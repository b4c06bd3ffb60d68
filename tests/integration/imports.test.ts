import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { recordSucceeded } from '~/domain/donations/ledger.server';
import { createImport, dryRun, getImport, savePreset, setMapping, listPresets } from '~/domain/imports/imports.server';
import { resumeImports, runImport, startImport, undoBlocker, undoImport } from '~/domain/imports/run.server';
import { FileError } from '~/domain/imports/read.server';
import { getPerson, personOfEmail } from '~/domain/people/register.server';
import { foldIn } from '~/domain/people/sync.server';
import { runtime } from '~/lib/runtime.server';
import { describeEachDialect } from '../support/db';
import { givewpDonations, helloassoLine, helloassoPayments, HELLOASSO_HEADER, ownSpreadsheet, utf8Bom, windows1252 } from '../support/import-files';
import { startTestRuntime } from '../support/runtime';
import { startSmtp } from '../support/smtp';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { action as listAction, loader as listLoader } from '~/routes/imports/list';
import { action as showAction, loader as showLoader } from '~/routes/imports/show';

const APP_SECRET = 'imports-'.padEnd(48, 'i');
const ADA = { id: 'a1', name: 'Ada Admin' };

/**
 * Moving in (issue 43, ADR 036): files made as HelloAsso's and GiveWP's exports (BOM, `;`,
 * Windows-1252, quoted newlines) and a spreadsheet of one's own, checked by a dry run (counts,
 * matching, rejects by line) then imported (statuses kept, no receipt, no mail), the same file
 * twice adding nothing, a restart resuming, an import undone as a whole.
 */
describeEachDialect('imports of gifts from other tools, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const db = () => runtime().db;
  const storage = () => runtime().storage;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    smtp = await startSmtp();
    app = await startTestRuntime(dialect, APP_SECRET, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://fondation.example.org' });
    // A donor already known from an online gift: matched by e-mail.
    await recordSucceeded(db(), { provider: 'stripe', providerRef: 'pi_known', amountMinor: 1000, currency: 'EUR', eurCents: 1000, frequency: 'once', language: 'fr', donorName: 'Awa Diallo', donorEmail: 'awa@example.org' });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
    vi.unstubAllEnvs();
  });

  const imported = (id: string) => db().selectFrom('donations').selectAll().where('import_id', '=', id).orderBy('source_ref').execute();
  async function importFile(name: string, data: Buffer) {
    const i = await createImport(db(), storage(), ADA, name, data);
    const report = (await dryRun(db(), storage(), i.id))!;
    return { id: i.id, report };
  }

  it('HelloAsso payments (UTF-8 with a BOM, `;`, a quoted newline): the dry run counts, matches and refuses by line, and writes nothing', async () => {
    const before = await db().selectFrom('donations').select('id').execute();
    const { id, report } = await importFile('export-paiements.csv', utf8Bom(helloassoPayments()));
    expect((await getImport(db(), id))!.source).toBe('helloasso');
    expect(report.fatal).toBeNull();
    expect(report).toMatchObject({ lines: 6, gifts: 4, succeeded: 2, refunded: 1, failed: 1, totalCents: 8500 + 120050, alreadyImported: 0, matchedByEmail: 1, newDonors: 3, rejectedCount: 2 });
    expect(report.rejected).toEqual([
      { line: 6, reason: 'la date « 31/02/2024 09:00 » est impossible (attendu JJ/MM/AAAA ou AAAA-MM-JJ).' },
      { line: 7, reason: 'le montant « 4O,00 » n’est pas un montant (attendu par exemple 85,00).' },
    ]);
    expect(report.campaignsUnknown).toContain('Puits\nau Sénégal');
    expect((await db().selectFrom('donations').select('id').execute()).length).toBe(before.length);
  });

  it('the import: statuses kept (refunded and refused never succeeded), means mapped, no receipt and no mail; the same file again adds nothing; undone as a whole', async () => {
    const { id } = await importFile('export-paiements.csv', utf8Bom(helloassoPayments()));
    expect(await startImport(db(), ADA, id)).toBe(true);
    expect(await runImport(db(), storage(), id)).toBe(6);
    const rows = await imported(id);
    expect(rows.map((r) => [r.source_ref, r.status, r.provider, r.amount_minor, r.donor_email])).toEqual([
      ['P2001', 'succeeded', 'stripe', 8500, 'jeanne.martin@example.org'],
      ['P2002', 'succeeded', 'cheque', 120050, 'awa@example.org'],
      ['P2003', 'refunded', 'stripe', 3000, 'eloise@example.org'],
      ['P2004', 'failed', 'stripe', 2000, 'gael@example.org'],
    ]);
    expect(rows[0]).toMatchObject({ source: 'helloasso', verifiable: 0, succeeded_at: '2024-03-14T09:12:00.000Z', donor_name: 'Jeanne Martin', receipt_sent_at: null });
    expect(rows[3].succeeded_at).toBeNull();
    expect(await db().selectFrom('receipts').select('id').where('donation_id', 'in', rows.map((r) => r.id)).execute()).toEqual([]);
    expect((await getImport(db(), id))!).toMatchObject({ status: 'done', imported_count: 4, cursor: 6 });

    // Windows-1252 (Excel's re-save) of the same file: read alike, and nothing is new.
    const again = await importFile('export-excel.csv', windows1252(helloassoPayments()));
    expect(again.report).toMatchObject({ gifts: 4, alreadyImported: 4, rejectedCount: 2 });
    expect(await startImport(db(), ADA, again.id)).toBe(true);
    await runImport(db(), storage(), again.id);
    expect((await getImport(db(), again.id))!.imported_count).toBe(0);
    expect(await imported(again.id)).toEqual([]);

    // No mail of any kind for anything imported.
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toEqual([]);
    expect(await db().selectFrom('mail_outbox').select('id').execute()).toEqual([]);

    expect(await undoBlocker(db(), id)).toBeNull();
    expect(await undoImport(db(), storage(), ADA, id)).toEqual({ ok: true, gifts: 4, subscribers: 0, campaigns: 2, members: 0 });
    expect(await imported(id)).toEqual([]);
    expect((await getImport(db(), id))!.status).toBe('undone');
    expect(await undoImport(db(), storage(), ADA, id)).toEqual({ ok: false, message: 'Cet import est déjà annulé.' });
    const trail = await db().selectFrom('audit_log').select('action').where('action', 'like', 'import.%').execute();
    expect(trail.map((t) => t.action)).toEqual(expect.arrayContaining(['import.uploaded', 'import.started', 'import.done', 'import.undone']));
    // The donor known before keeps their gift.
    expect(await db().selectFrom('donations').select('id').where('provider_ref', '=', 'pi_known').execute()).toHaveLength(1);
  });

  it('undoing an import gives the donors register its figures back (the fold never sees a deleted gift)', async () => {
    await foldIn(db());
    const awa = await personOfEmail(db(), 'awa@example.org');
    const figures = async (id: string) => {
      const p = (await getPerson(db(), id))!;
      const years = await db().selectFrom('person_years').select(['year', 'gifts', 'cents']).where('person_id', '=', id).orderBy('year').execute();
      return { gifts: p.gifts, totalCents: p.totalCents, largestCents: p.largestCents, lastGiftAt: p.lastGiftAt, years: years.map((y) => [Number(y.year), Number(y.gifts), Number(y.cents)]) };
    };
    const before = await figures(awa!);
    expect(before).toMatchObject({ gifts: 1, totalCents: 1000, largestCents: 1000 });
    const lines = [HELLOASSO_HEADER, helloassoLine({ order: 'U1', ref: 'UNDO1', amount: '250,00', date: '03/01/2023 10:00', status: 'Autorisé', last: 'Diallo', first: 'Awa', email: 'AWA@example.org' }), helloassoLine({ order: 'U2', ref: 'UNDO2', amount: '70,00', date: '04/01/2023 10:00', status: 'Autorisé', last: 'Neuve', first: 'Nina', email: 'nina.neuve@example.org' })];
    const { id } = await importFile('a-reprendre.csv', utf8Bom(lines.join('\n')));
    await startImport(db(), ADA, id);
    await runImport(db(), storage(), id);
    // Read by the register: the imported gifts are in the figures (of a known donor, and of a new one).
    expect(await figures(awa!)).toEqual({ gifts: 2, totalCents: 26_000, largestCents: 25_000, lastGiftAt: before.lastGiftAt, years: [[2023, 1, 25_000], ...before.years] });
    const nina = (await personOfEmail(db(), 'nina.neuve@example.org'))!;
    expect(await figures(nina)).toEqual({ gifts: 1, totalCents: 7000, largestCents: 7000, lastGiftAt: '2023-01-04T09:00:00.000Z', years: [[2023, 1, 7000]] });
    expect(await undoImport(db(), storage(), ADA, id)).toEqual({ ok: true, gifts: 2, subscribers: 0, campaigns: 1, members: 0 });
    // Undone: the figures are back to what they were; the new donor's record stays, with no gift.
    expect(await figures(awa!)).toEqual(before);
    expect(await figures(nina)).toEqual({ gifts: 0, totalCents: 0, largestCents: 0, lastGiftAt: null, years: [] });
  });

  it('a restart mid-import resumes where it stopped, adding nothing twice', async () => {
    const lines = [HELLOASSO_HEADER];
    for (let n = 0; n < 9; n++) lines.push(helloassoLine({ order: `R${n}`, ref: `RS${n}`, amount: '10,00', date: '01/02/2024 12:00', status: 'Autorisé', last: 'Reprise', first: `N${n}`, email: `r${n}@example.org` }));
    const { id } = await importFile('reprise.csv', utf8Bom(lines.join('\n')));
    await startImport(db(), ADA, id);
    expect(await runImport(db(), storage(), id, { batchLines: 4, stopAfter: 1 })).toBe(4);
    expect((await getImport(db(), id))!).toMatchObject({ status: 'running', cursor: 4, imported_count: 4 });
    expect(await resumeImports(db(), storage())).toBe(1);
    expect((await getImport(db(), id))!).toMatchObject({ status: 'done', cursor: 9, imported_count: 9 });
    expect(await imported(id)).toHaveLength(9);
    await undoImport(db(), storage(), ADA, id);
  });

  it('a batch larger than one statement holds (the ledger inserts some 900 rows a statement): every line written once', async () => {
    const lines = [HELLOASSO_HEADER];
    for (let n = 0; n < 1900; n++) lines.push(helloassoLine({ order: `G${n}`, ref: `GS${n}`, amount: '5,00', date: '03/03/2024 12:00', status: 'Autorisé', last: 'Grand', first: `N${n}`, email: `g${n}@example.org` }));
    const { id } = await importFile('grand.csv', utf8Bom(lines.join('\n')));
    await startImport(db(), ADA, id);
    expect(await runImport(db(), storage(), id)).toBe(1900);
    expect((await getImport(db(), id))!).toMatchObject({ status: 'done', imported_count: 1900 });
    expect(new Set((await imported(id)).map((r) => r.source_ref)).size).toBe(1900);
    await undoImport(db(), storage(), ADA, id);
  });

  it('GiveWP donations (`,`, US amounts): recognised, statuses and means mapped, address kept', async () => {
    const { id, report } = await importFile('give-donations.csv', Buffer.from(givewpDonations()));
    expect((await getImport(db(), id))!.source).toBe('givewp');
    expect(report).toMatchObject({ gifts: 3, succeeded: 1, refunded: 1, failed: 1, rejectedCount: 0 });
    await startImport(db(), ADA, id);
    await runImport(db(), storage(), id);
    const rows = await imported(id);
    expect(rows.map((r) => [r.source_ref, r.status, r.provider, r.amount_minor])).toEqual([
      ['501', 'succeeded', 'stripe', 5000],
      ['502', 'refunded', 'paypal', 100000],
      ['503', 'failed', 'transfer', 2500],
    ]);
    expect(JSON.parse(rows[0].tax_details!)).toMatchObject({ name: 'Paul Durand', address: '12 rue des Lilas, Bât. B', postalCode: '69003', city: 'Lyon' });
    await undoImport(db(), storage(), ADA, id);
  });

  it('a spreadsheet of its own: mapping guessed then saved as a preset; a donor recognised by name and postal code shown for review; a subscriber only with a proof of consent, never mailed', async () => {
    await recordSucceeded(db(), { provider: 'stripe', providerRef: 'pi_luc', amountMinor: 500, currency: 'EUR', eurCents: 500, frequency: 'once', language: 'fr', donorName: 'Luc Bernard', taxDetails: JSON.stringify({ kind: 'individual', name: 'Luc Bernard', company: '', siren: '', address: '1 rue', postalCode: '13001', city: 'Marseille', country: 'France' }) });
    const i = await createImport(db(), storage(), ADA, 'tableur.csv', Buffer.from(ownSpreadsheet()));
    expect(i.source).toBe('spreadsheet');
    const mapping = { lastName: 'Nom', firstName: 'Prénom', postalCode: 'Code postal', city: 'Ville', email: 'Courriel', amount: 'Montant', date: 'Date', consentAt: 'Nouvelles le' };
    await setMapping(db(), i.id, { source: 'spreadsheet', mapping, defaultMeans: 'cheque', presetId: null });
    await savePreset(db(), ADA, 'Mon tableur', mapping);
    expect((await listPresets(db())).map((p) => p.label)).toContain('Mon tableur');
    const report = (await dryRun(db(), storage(), i.id))!;
    expect(report).toMatchObject({ gifts: 2, subscribers: 1, newDonors: 1, rejectedCount: 0 });
    expect(report.matchedByName).toEqual([{ line: 2, name: 'Luc Bernard', postalCode: '13001' }]);
    await startImport(db(), ADA, i.id);
    await runImport(db(), storage(), i.id);
    const rows = await imported(i.id);
    expect(rows.map((r) => [r.provider, r.amount_minor])).toEqual(expect.arrayContaining([['cheque', 1500], ['cheque', 2250]]));
    const sub = await db().selectFrom('subscribers').selectAll().where('email', '=', 'zoe@example.org').executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ status: 'subscribed', source: 'import' });
    const proof = await db().selectFrom('subscriber_events').selectAll().where('subscriber_id', '=', sub.id).execute();
    expect(proof).toMatchObject([{ kind: 'joined', source: 'import', at: '2024-01-11T07:00:00.000Z', wording_version: 'import:spreadsheet', detail: `import:${i.id}` }]);
    expect(smtp.mails).toEqual([]);
    expect(await db().selectFrom('mail_outbox').select('id').execute()).toEqual([]);
    expect(await undoImport(db(), storage(), ADA, i.id)).toEqual({ ok: true, gifts: 2, subscribers: 1, campaigns: 0, members: 0 });
    expect(await db().selectFrom('subscribers').select('id').where('email', '=', 'zoe@example.org').execute()).toEqual([]);
  });

  it('bad input gets a sentence and nothing is imported: not a table, a corrupt XLSX, wrong encoding, missing column', async () => {
    const refused = async (data: Buffer) => {
      try {
        await createImport(db(), storage(), ADA, 'x.csv', data);
        return 'accepted';
      } catch (e) {
        expect(e).toBeInstanceOf(FileError);
        return (e as Error).message;
      }
    };
    expect(await refused(Buffer.from([0, 1, 2, 3, 4, 0, 0, 9]))).toMatch(/n’est pas un tableau/);
    expect(await refused(Buffer.from('PK\x03\x04rest', 'latin1'))).toMatch(/^Ce classeur Excel est illisible/);
    expect(await refused(Buffer.from('juste une phrase\nsans colonnes\n'))).toMatch(/aucun séparateur/);
    expect(await refused(Buffer.from('Nom;Montant\nLefÃ¨vre;10\n'))).toMatch(/mal encodé/);
    expect(await refused(Buffer.alloc(0))).toBe('Le fichier est vide.');

    const noAmount = HELLOASSO_HEADER.replace('Montant total;', 'Total;');
    const { id, report } = await importFile('sans-montant.csv', utf8Bom(`${noAmount}\nC;P;10,00;01/01/2024 10:00;Autorisé\n`));
    // Recognised as HelloAsso's by its other columns: the missing one is named.
    expect(report.fatal).toBe('Colonne absente du fichier : « Montant total ».');
    await setMapping(db(), id, { source: 'spreadsheet', mapping: { date: 'Date du paiement' }, defaultMeans: 'transfer', presetId: null });
    expect((await dryRun(db(), storage(), id))!.fatal).toBe('Choisissez la colonne de : Montant.');
    expect(await startImport(db(), ADA, id)).toBe(false);
  });

  it('the screens: an Admin uploads (multipart), reads the dry run, imports, sees the progress and undoes; an Éditeur may not', async () => {
    const ORIGIN = 'https://fondation.example.org';
    const admin = await sessionCookie(db(), { id: 'a9', name: 'Ada Admin', email: 'ada9@fondation.example.org', role: 'Admin' });
    const editor = await sessionCookie(db(), { id: 'e9', name: 'Éva', email: 'eva9@fondation.example.org', role: 'Éditeur' });
    const call = async (route: (args: never) => unknown, path: string, cookie: string, init: RequestInit = {}, params: Record<string, string> = {}) => {
      const request = new Request(`${ORIGIN}${path}`, { ...init, headers: { cookie, Origin: ORIGIN, ...(init.headers as Record<string, string>) } });
      try {
        return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
      } catch (thrown) {
        return thrown;
      }
    };
    const upload = (cookie: string, data: Buffer, name = 'paiements.csv') => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(data)], { type: 'text/csv' }), name);
      return call(listAction, '/admin/imports', cookie, { method: 'POST', body });
    };
    expect(answer(await call(listLoader, '/admin/imports', editor)).status).toBe(403);
    expect(answer(await upload(editor, utf8Bom(helloassoPayments()))).status).toBe(403);

    const refused = answer(await upload(admin, Buffer.from('PK\x03\x04', 'latin1'), 'classeur.xlsx'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Ce classeur Excel est illisible/);

    const r = (await upload(admin, utf8Bom(helloassoPayments()))) as Response;
    expect(r.status).toBe(302);
    const id = r.headers.get('Location')!.split('/').at(-1)!;
    const page = async () => (await call(showLoader, `/admin/imports/${id}`, admin, {}, { importId: id })) as { status: string; report: { gifts: number; rejected: { line: number }[] }; progress: { done: number; imported: number }; undoBlocker: string | null };
    expect((await page()).status).toBe('checked');
    expect((await page()).report.rejected.map((x) => x.line)).toEqual([6, 7]);
    const post = (body: Record<string, string>) =>
      call(showAction, `/admin/imports/${id}`, admin, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() }, { importId: id });
    expect(((await post({ intent: 'start' })) as Response).status).toBe(302);
    for (let n = 0; n < 50 && (await page()).status !== 'done'; n++) await new Promise((res) => setTimeout(res, 100));
    expect(await page()).toMatchObject({ status: 'done', progress: { done: 6, imported: 4 }, undoBlocker: null });
    expect(await post({ intent: 'undo' })).toEqual({ done: 'Import annulé : 4 don(s), 0 abonné(s), 0 membre(s) et 2 campagne(s) créée(s) par lui retirés.' });
    expect((await listLoader({ request: new Request(`${ORIGIN}/admin/imports`, { headers: { cookie: admin } }), context: routeContext(), params: {}, unstable_pattern: '' } as never)).imports[0]).toMatchObject({ source: 'HelloAsso', status: 'Annulé' });
  });
});

