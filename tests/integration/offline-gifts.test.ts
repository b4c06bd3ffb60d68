import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { listDonations, recordSucceeded } from '~/domain/donations/ledger.server';
import { eraseDonorData } from '~/domain/donors/personal-data.server';
import { donationReport } from '~/domain/reports/reports.server';
import { parisDay } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { action as batchesAction, loader as batchesPage } from '~/routes/offline-gifts/batches';
import { action as batchAction, loader as batchPage } from '~/routes/offline-gifts/batch';
import { action as singleAction, loader as singlePage } from '~/routes/offline-gifts/single';
import { loader as slipLoader } from '~/routes/offline-gifts/slip';
import { describeEachDialect } from '../support/db';
import { pdfText } from '../support/pdf';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'offline-gifts-'.padEnd(48, 'o');
const ORIGIN = 'https://fondation.example.org';

type Entry = { token: string; today: string; found: { fromGift: string; name: string }[] | null; donor: { name: string; address: string; email: string } | null };
type BatchPage = { batch: { id: string; number: number; status: string }; totals: { count: string; total: string }; notice: string | null; entry: Entry | null; lines: { id: string; amount: string; reference: string; bank: string; donor: string; receipt: string; status: string; voidable: boolean }[] };

/**
 * Gifts received by post or at the bank (issue 41, ADR 028), through the routes as React Router
 * calls them: a batch of cheques goes through the ledger (succeeded, means cheque, receipts
 * numbered), its totals and deposit slip, its deposit and reconciliation; a mistyped entry taken
 * back with a reason; French errors with nothing written; Éditeurs only when an Admin allows it.
 */
describeEachDialect('gifts received by post or at the bank, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let admin = '';
  let editor = '';
  const db = () => runtime().db;
  const today = () => parisDay(new Date());
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva Éditrice', email: 'eva@fondation.example.org', role: 'Éditeur' });
    await setReceiptSettings(db());
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function call(route: (args: never) => unknown, path: string, cookie: string, body?: Record<string, string>, params: Record<string, string> = {}) {
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const batchPath = (id: string) => `/admin/cheques/remises/${id}`;
  const page = async (id: string, query = '', cookie = admin) => (await call(batchPage, `${batchPath(id)}${query}`, cookie, undefined, { batchId: id })) as BatchPage;
  const post = (id: string, body: Record<string, string>, cookie = admin) => call(batchAction, batchPath(id), cookie, body, { batchId: id });
  async function openBatch(cookie = admin): Promise<string> {
    const r = (await call(batchesAction, '/admin/cheques', cookie, { intent: 'open' })) as Response;
    expect(r.status).toBe(302);
    return r.headers.get('Location')!.split('/').at(-1)!;
  }
  const cheque = (token: string, over: Record<string, string> = {}) => ({
    intent: 'gift', token, means: 'cheque', amount: '50', cheque_number: '1234567', bank: 'Crédit Agricole', name: 'Jeanne Martin', email: '', address: '8 avenue Foch', postal_code: '69006', city: 'Lyon', country: 'France', received_on: today(), ...over,
  });
  /** Types one cheque on the batch page's fresh form; answers the redirect's notice. */
  async function typeCheque(id: string, over: Record<string, string> = {}, query = '') {
    const { entry } = await page(id, query);
    const r = (await post(id, cheque(entry!.token, over))) as Response;
    expect(r.status, JSON.stringify(answer(r).body)).toBe(302);
    return (await page(id, `?${r.headers.get('Location')!.split('?')[1]}`)).notice;
  }
  const donationsOf = (batchId: string) =>
    db().selectFrom('offline_gifts').innerJoin('donations', 'donations.id', 'offline_gifts.payment_id').selectAll().where('batch_id', '=', batchId).orderBy('offline_gifts.created_at').execute();

  it('a batch of cheques: each gift succeeded through the ledger with means cheque, its receipt issued, the running count and total, the deposit slip, then deposit and reconciliation', async () => {
    // A donor known from an online gift, found by postal code and chosen: the form is filled from that gift.
    await recordSucceeded(db(), { provider: 'stripe', providerRef: 'pi_known_donor', amountMinor: 2000, currency: 'EUR', eurCents: 2000, frequency: 'once', language: 'fr', donorName: 'Awa Diallo', donorEmail: 'awa@example.org', taxDetails: JSON.stringify(DONOR) });
    const id = await openBatch();
    const found = (await page(id, '?q=75011')).entry!.found!;
    expect(found.map((d) => d.name)).toEqual(['Awa Diallo']);
    const chosen = (await page(id, `?donneur=${found[0].fromGift}`)).entry!.donor!;
    expect(chosen).toMatchObject({ name: 'Awa Diallo', address: '3 rue des Lilas', email: 'awa@example.org' });

    const notice = await typeCheque(id, { amount: '120,50', cheque_number: '0000101', bank: 'La Banque Postale', name: chosen.name, email: chosen.email, address: chosen.address, postal_code: '75011', city: 'Paris' });
    expect(notice).toMatch(/^Enregistré : 120,50\s€ — Awa Diallo \(reçu RF-\d{4}-\d{6}\)\.$/);
    // A donor known only by post: no e-mail; the receipt goes to the register, nothing is mailed.
    await typeCheque(id, { amount: '50', cheque_number: '0000102' });
    // A donor who wants no receipt; another person signed the cheque.
    await typeCheque(id, { amount: '30', cheque_number: '0000103', bank: 'CIC', name: 'Paul Durand', address: '', postal_code: '', city: '', no_receipt: 'on', drawer: 'Mme Durand' });

    const rows = await donationsOf(id);
    expect(rows.map((r) => [r.provider, r.status, r.purpose, r.amount_minor, r.secondary_ref, r.bank, r.drawer, r.recorded_by, r.nature])).toEqual([
      ['cheque', 'succeeded', 'gift', 12050, '0000101', 'La Banque Postale', 'Awa Diallo', 'Ada Admin', 'numeraire'],
      ['cheque', 'succeeded', 'gift', 5000, '0000102', 'Crédit Agricole', 'Jeanne Martin', 'Ada Admin', 'numeraire'],
      ['cheque', 'succeeded', 'gift', 3000, '0000103', 'CIC', 'Mme Durand', 'Ada Admin', 'numeraire'],
    ]);
    expect(rows[0].succeeded_at!.slice(0, 10)).toBe(today());
    const receipts = await db().selectFrom('receipts').select(['donation_id', 'amount_cents', 'method', 'status', 'donor']).where('donation_id', 'in', rows.map((r) => r.payment_id)).execute();
    expect(receipts.map((r) => [r.donation_id, r.amount_cents, r.method, r.status]).sort()).toEqual([[rows[0].payment_id, 12050, 'Chèque', 'issued'], [rows[1].payment_id, 5000, 'Chèque', 'issued']].sort());
    expect(JSON.parse(receipts.find((r) => r.donation_id === rows[1].payment_id)!.donor)).toMatchObject({ name: 'Jeanne Martin', address: '8 avenue Foch', postalCode: '69006', city: 'Lyon' });
    // The donor with an e-mail is thanked with the receipt, as an online gift is.
    const mails = await db().selectFrom('mail_outbox').select(['to']).where('to', '=', 'awa@example.org').execute();
    expect(mails.length).toBeGreaterThanOrEqual(1);
    const audit = await db().selectFrom('audit_log').select(['user_name', 'target']).where('action', '=', 'donation.recorded').where('details', 'like', `%${rows[2].payment_id}%`).executeTakeFirstOrThrow();
    expect(audit).toEqual({ user_name: 'Ada Admin', target: '30.00 EUR (cheque)' });

    const shown = await page(id);
    expect(shown.totals.count).toBe('3 chèques');
    expect(shown.totals.total).toMatch(/^200,50\s€$/);
    expect(shown.lines.map((l) => l.reference)).toEqual(['0000101', '0000102', '0000103']);
    expect(shown.lines[2].receipt).toBe('—');
    // In the donations list and the reports, as any gift.
    expect((await listDonations(db(), { provider: 'cheque' })).map((d) => d.id)).toEqual(expect.arrayContaining(rows.map((r) => r.payment_id)));
    const report = await donationReport(db(), {});
    expect(report.byMethod.find((m) => m.provider === 'cheque')).toMatchObject({ gifts: 3, cents: 20050 });

    const slip = (await call(slipLoader, `${batchPath(id)}/bordereau.pdf`, admin, undefined, { batchId: id })) as Response;
    expect(slip.headers.get('Content-Type')).toBe('application/pdf');
    const text = await pdfText(Buffer.from(await slip.arrayBuffer()));
    const number = shown.batch.number;
    expect(text).toContain('Bordereau de remise de chèques');
    expect(text).toContain(`Remise n° ${number} du ${today().split('-').reverse().join('/')}`);
    expect(text).toContain('Remettant : Fondation THV');
    for (const n of ['0000101 La Banque Postale Awa Diallo 120,50 €', '0000102 Crédit Agricole Jeanne Martin 50,00 €', '0000103 CIC Mme Durand 30,00 €']) expect(text).toContain(n);
    expect(text).toContain('Nombre de chèques : 3');
    expect(text).toContain('Total de la remise : 200,50 €');

    // Deposited: no cheque enters it any more (a form opened before is refused, nothing written).
    const before = (await page(id)).entry!.token;
    expect(answer(await post(id, { intent: 'deposit', deposited_on: today() })).body.toast).toMatchObject({ title: 'Remise déposée' });
    expect((await page(id)).entry).toBeNull();
    const late = answer(await post(id, cheque(before, { cheque_number: '0000104' })));
    expect(late.status).toBe(409);
    expect(await donationsOf(id)).toHaveLength(3);

    // Reconciled only with the exact credit.
    const wrong = answer(await post(id, { intent: 'reconcile', credited: '200', reconciled_on: today() }));
    expect(wrong.status).toBe(400);
    expect((wrong.body.toast as { description: string }).description.replace(/\s/g, ' ')).toBe('Le montant crédité (200,00 €) ne correspond pas au total de la remise (200,50 €) : écart de 0,50 €.');
    expect(answer(await post(id, { intent: 'reconcile', credited: '200,50', reconciled_on: today() })).body.toast).toMatchObject({ title: 'Remise rapprochée' });
    expect(await db().selectFrom('gift_batches').select(['status', 'credited_cents', 'reconciled_by']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'reconciled', credited_cents: 20050, reconciled_by: 'Ada Admin' });
    const listed = (await call(batchesPage, '/admin/cheques', admin)) as { batches: { id: string; count: string; status: string }[] };
    expect(listed.batches.find((b) => b.id === id)).toMatchObject({ count: '3 chèques', status: 'Rapprochée' });
  });

  it('a mistyped cheque taken back with a reason: the gift cancelled, its receipt cancelled, audited, out of the totals and the slip', async () => {
    const id = await openBatch();
    await typeCheque(id, { amount: '500', cheque_number: '0000201', email: 'typo@example.org' });
    await typeCheque(id, { amount: '40', cheque_number: '0000202' });
    const [wrong] = await donationsOf(id);
    const receipt = await db().selectFrom('receipts').select(['id']).where('donation_id', '=', wrong.payment_id).executeTakeFirstOrThrow();
    const noReason = answer(await post(id, { intent: 'void', payment_id: wrong.payment_id, reason: ' ' }));
    expect(noReason).toMatchObject({ status: 400, body: { errors: { [`void:${wrong.payment_id}`]: 'Champ obligatoire.' } } });
    expect(answer(await post(id, { intent: 'void', payment_id: wrong.payment_id, reason: 'Erreur' }, editor)).status).toBe(403);

    const done = answer(await post(id, { intent: 'void', payment_id: wrong.payment_id, reason: 'Montant mal saisi (50 €)' }));
    expect(done.body.toast).toMatchObject({ title: 'Saisie annulée' });
    expect(await db().selectFrom('donations').select(['status', 'error']).where('id', '=', wrong.payment_id).executeTakeFirstOrThrow()).toEqual({ status: 'cancelled', error: 'Montant mal saisi (50 €)' });
    expect(await db().selectFrom('receipts').select(['status', 'cancel_reason']).where('id', '=', receipt.id).executeTakeFirstOrThrow()).toEqual({ status: 'cancelled', cancel_reason: 'Saisie annulée : Montant mal saisi (50 €)' });
    const line = await db().selectFrom('audit_log').selectAll().where('action', '=', 'donation.voided').where('details', 'like', `%${wrong.payment_id}%`).executeTakeFirstOrThrow();
    expect(line).toMatchObject({ user_name: 'Ada Admin', target: '500.00 EUR (cheque)' });
    expect(answer(await post(id, { intent: 'void', payment_id: wrong.payment_id, reason: 'Encore' })).status).toBe(409);
    const shown = await page(id);
    expect(shown.totals.count).toBe('1 chèque');
    expect(shown.totals.total).toMatch(/^40,00\s€$/);
    expect(shown.lines[0]).toMatchObject({ status: 'Annulé', voidable: false });
    const slip = (await call(slipLoader, `${batchPath(id)}/bordereau.pdf`, admin, undefined, { batchId: id })) as Response;
    const text = await pdfText(Buffer.from(await slip.arrayBuffer()));
    expect(text).not.toContain('0000201');
    expect(text).toContain('Total de la remise : 40,00 €');
    // An empty batch cannot be deposited.
    const empty = await openBatch();
    expect((answer(await post(empty, { intent: 'deposit', deposited_on: today() })).body.toast as { description: string }).description).toBe('Une remise vide ne peut pas être déposée : saisissez au moins un chèque.');
  });

  it('refuses a wrong entry with French messages, and writes nothing', async () => {
    const id = await openBatch();
    const count = async () => Number((await db().selectFrom('donations').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const { token } = (await page(id)).entry!;
    const bad = answer(await post(id, cheque(token, { amount: '0', cheque_number: '', bank: '', name: '', email: 'pas-un-email', received_on: '2999-01-01' })));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      amount: 'Un montant en euros supérieur à 0, 100 000 € au plus (ex. 50 ou 50,00).',
      cheque_number: 'Le numéro du chèque est obligatoire.',
      bank: 'La banque du chèque est obligatoire.',
      name: 'Champ obligatoire.',
      email: 'Une adresse e-mail valide, ou vide.',
      received_on: 'La date de réception ne peut pas être dans le futur.',
    });
    // A receipt wanted without the address: the receipts' own rule, in French, beside the field.
    const noAddress = answer(await post(id, cheque(token, { address: '', city: '' })));
    expect(noAddress.body.errors).toEqual({ address: 'Adresse : champ obligatoire pour le reçu fiscal.', city: 'Commune : champ obligatoire pour le reçu fiscal.' });
    const closed = answer(await post(id, cheque(token, { campaign_id: 'campagne-inconnue' })));
    expect(Object.keys(closed.body.errors as object)).toEqual(['campaign_id']);
    expect(answer(await post(id, cheque('forged'))).body.errors).toEqual({ token: 'Formulaire périmé : rechargez la page.' });
    expect(await count()).toBe(before);
    expect(await db().selectFrom('offline_gifts').select('payment_id').where('batch_id', '=', id).execute()).toEqual([]);
    // The same form sent twice records one gift.
    const first = (await post(id, cheque(token))) as Response;
    const again = (await post(id, cheque(token))) as Response;
    expect([first.headers.get('Location'), again.headers.get('Location')]).toEqual([expect.stringMatching(/\?ok=[0-9a-f-]{36}$/), `${batchPath(id)}?ok=deja`]);
    expect(await count()).toBe(before + 1);
  });

  it('a transfer one by one, outside any batch', async () => {
    const { entry } = (await call(singlePage, '/admin/cheques/don', admin)) as { entry: Entry };
    const r = (await call(singleAction, '/admin/cheques/don', admin, { ...cheque(entry.token), means: 'transfer', cheque_number: '', bank: '', reference: 'VIR DURAND JANVIER', amount: '75' })) as Response;
    expect(r.status).toBe(302);
    const [row] = await db().selectFrom('offline_gifts').innerJoin('donations', 'donations.id', 'offline_gifts.payment_id').selectAll().where('batch_id', 'is', null).where('provider', '=', 'transfer').execute();
    expect(row).toMatchObject({ status: 'succeeded', purpose: 'gift', amount_minor: 7500, secondary_ref: 'VIR DURAND JANVIER', bank: null, drawer: null });
    expect(await db().selectFrom('receipts').select('method').where('donation_id', '=', row.payment_id).executeTakeFirstOrThrow()).toEqual({ method: 'Virement' });
    // A cheque is not typed one by one: it goes into a batch.
    const { entry: next } = (await call(singlePage, '/admin/cheques/don', admin)) as { entry: Entry };
    expect(answer(await call(singleAction, '/admin/cheques/don', admin, cheque(next.token))).body.errors).toEqual({ means: 'Choisissez virement ou espèces.' });
  });

  it('a company’s transfer needs its legal form (CERFA n° 16216), kept on its 238 bis receipt', async () => {
    const company = { means: 'transfer', cheque_number: '', bank: '', reference: 'VIR ACME', amount: '500', name: 'Jean Martin', company: 'ACME', siren: '987654321' };
    const { entry } = (await call(singlePage, '/admin/cheques/don', admin)) as { entry: Entry };
    const bad = answer(await call(singleAction, '/admin/cheques/don', admin, { ...cheque(entry.token), ...company }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ legal_form: 'Forme juridique (SAS, SARL, association…) : champ obligatoire pour le reçu fiscal.' });
    const tooLong = answer(await call(singleAction, '/admin/cheques/don', admin, { ...cheque(entry.token), ...company, legal_form: 'S'.repeat(61) }));
    expect(Object.keys(tooLong.body.errors as object)).toEqual(['legal_form']);
    const r = (await call(singleAction, '/admin/cheques/don', admin, { ...cheque(entry.token), ...company, legal_form: ' SAS ' })) as Response;
    expect(r.status).toBe(302);
    const gift = await db().selectFrom('donations').select('id').where('secondary_ref', '=', 'VIR ACME').executeTakeFirstOrThrow();
    const receipt = await db().selectFrom('receipts').select(['regime', 'donor']).where('donation_id', '=', gift.id).executeTakeFirstOrThrow();
    expect(receipt.regime).toBe('238bis');
    expect(JSON.parse(receipt.donor)).toMatchObject({ kind: 'company', company: 'ACME', legalForm: 'SAS', siren: '987654321' });
  });

  it('erasing a donor’s data erases the name they signed their cheque with; the cheque stays in the books', async () => {
    const id = await openBatch();
    await typeCheque(id, { amount: '42', cheque_number: '0000301', name: 'Paul Effacé', email: 'paul.efface@example.org' });
    const [before] = (await donationsOf(id)).filter((r) => r.secondary_ref === '0000301');
    expect(before).toMatchObject({ drawer: 'Paul Effacé', amount_minor: 4200, bank: 'Crédit Agricole' });
    expect(await eraseDonorData(db(), 'paul.efface@example.org', { id: 'a1', name: 'Ada Admin' })).toMatchObject({ ok: true });
    const [after] = (await donationsOf(id)).filter((r) => r.secondary_ref === '0000301');
    expect(after).toMatchObject({ drawer: null, amount_minor: 4200, bank: 'Crédit Agricole', status: 'succeeded' });
    const slip = (await call(slipLoader, `${batchPath(id)}/bordereau.pdf`, admin, undefined, { batchId: id })) as Response;
    const text = await pdfText(new Uint8Array(await slip.arrayBuffer()));
    expect(text).toContain('0000301');
    expect(text).not.toContain('Effacé');
  });

  it('an Éditeur is refused until an Admin allows it; then types cheques, but takes nothing back', async () => {
    const id = await openBatch();
    expect(answer(await page(id, '', editor)).status).toBe(403);
    expect(answer(await call(batchesAction, '/admin/cheques', editor, { intent: 'open' })).status).toBe(403);
    expect(answer(await call(batchesAction, '/admin/cheques', editor, { intent: 'editors', editors: 'on' })).status).toBe(403);
    expect(answer(await call(batchesAction, '/admin/cheques', admin, { intent: 'editors', editors: 'on' })).body.toast).toMatchObject({ title: 'Paramètre enregistré' });
    const { entry } = await page(id, '', editor);
    const r = (await post(id, cheque(entry!.token, { cheque_number: '0000301' }), editor)) as Response;
    expect(r.status).toBe(302);
    const [row] = await donationsOf(id);
    expect(row).toMatchObject({ recorded_by: 'Éva Éditrice', status: 'succeeded' });
    expect((await page(id, '', editor)).lines[0].voidable).toBe(false);
    expect(answer(await post(id, { intent: 'deposit', deposited_on: today() }, editor)).status).toBe(403);
    await call(batchesAction, '/admin/cheques', admin, { intent: 'editors' });
    expect(answer(await page(id, '', editor)).status).toBe(403);
  });
  it('the account cheques are deposited to: checked, printed on the slip, audited, kept beside the other setting', async () => {
    const set = (body: Record<string, string>, cookie = admin) => call(batchesAction, '/admin/cheques', cookie, { intent: 'account', ...body });
    expect(answer(await set({ holder: 'Fondation THV', iban: 'FR76 3000 6000 0112 3456 7890 189' }, editor)).status).toBe(403);
    // A typo in the check digits, a holder missing: French messages, nothing saved.
    const wrong = answer(await set({ holder: 'Fondation THV', iban: 'FR76 3000 6000 0112 3456 7890 188' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.accountErrors).toEqual({ iban: 'Cet IBAN n’est pas valide : vérifiez le pays, la longueur et les chiffres (FR76 3000 6000 0112 3456 7890 189).' });
    expect(wrong.body.values).toEqual({ holder: 'Fondation THV', iban: 'FR76 3000 6000 0112 3456 7890 188' });
    expect(answer(await set({ holder: '', iban: 'FR7630006000011234567890189' })).body.accountErrors).toEqual({ holder: 'Indiquez le titulaire du compte.' });
    expect((await call(batchesPage, '/admin/cheques', admin) as { settings: { depositAccount: unknown } }).settings.depositAccount).toBeNull();

    await call(batchesAction, '/admin/cheques', admin, { intent: 'editors', editors: 'on' });
    expect(answer(await set({ holder: ' Fondation THV ', iban: 'fr76 3000 6000 0112 3456 7890 189' })).body.toast).toMatchObject({ title: 'Compte enregistré' });
    const shown = (await call(batchesPage, '/admin/cheques', admin)) as { settings: { editorsMayRecord: boolean; depositAccount: unknown } };
    expect(shown.settings).toEqual({ editorsMayRecord: true, depositAccount: { holder: 'Fondation THV', iban: 'FR7630006000011234567890189' } });
    const audit = await db().selectFrom('audit_log').select('target').where('action', '=', 'offline-gifts.settings').orderBy('at', 'desc').executeTakeFirstOrThrow();
    expect(audit.target).toBe('Compte de remise des chèques : Fondation THV, FR76 3000 6000 0112 3456 7890 189');

    const id = await openBatch();
    await typeCheque(id, { cheque_number: '0000401' });
    const slip = (await call(slipLoader, `${batchPath(id)}/bordereau.pdf`, admin, undefined, { batchId: id })) as Response;
    expect(await pdfText(Buffer.from(await slip.arrayBuffer()))).toContain('Compte à créditer : FR76 3000 6000 0112 3456 7890 189 (titulaire : Fondation THV)');

    // Both fields emptied: the account is removed, the permission stays.
    expect(answer(await set({ holder: '', iban: '' })).body.toast).toMatchObject({ description: 'Les bordereaux ne portent plus de compte.' });
    expect(((await call(batchesPage, '/admin/cheques', admin)) as { settings: unknown }).settings).toEqual({ editorsMayRecord: true, depositAccount: null });
    await call(batchesAction, '/admin/cheques', admin, { intent: 'editors' });
  });
});
