import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { donationReport } from '~/domain/reports/reports.server';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { parisDay, parisYear } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { action as natureAction, loader as naturePage } from '~/routes/offline-gifts/nature';
import { loader as evidenceLoader } from '~/routes/offline-gifts/evidence';
import { action as batchesAction } from '~/routes/offline-gifts/batches';
import { action as singleAction, loader as singlePage } from '~/routes/offline-gifts/single';
import { loader as registerCsv } from '~/routes/receipts/admin-register-csv';
import { describeEachDialect } from '../support/db';
import { HTML, makePdf, makePng } from '../support/media-files';
import { pdfText } from '../support/pdf';
import { setReceiptSettings } from '../support/receipts';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'gifts-in-kind-'.padEnd(48, 'k');
const ORIGIN = 'https://fondation.example.org';
const PATH = '/admin/cheques/nature';

type Line = { id: string; amount: string; nature: string; description: string; basis: string; evidence: string; receipt: string; status: string; voidable: boolean };
type Page = { means: string; notice: string | null; entry: { token: string }; lines: Line[] };

/**
 * Gifts in kind and waived expenses (issue 41, ADR 030), through the routes as React Router calls
 * them: each nature recorded through the ledger with its valuation, evidence and receipt (read back
 * from the PDF); French errors with nothing written; the evidence downloaded by staff only; the
 * register, its CSV and the reports keep them apart from money; a mistyped entry taken back.
 */
describeEachDialect('gifts in kind and waived expenses, on %s', (dialect) => {
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

  async function run(route: (args: never) => unknown, request: Request, params: Record<string, string> = {}) {
    try {
      return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const page = async (query = '', cookie = admin) => (await run(naturePage, new Request(`${ORIGIN}${PATH}${query}`, { headers: { cookie } }))) as Page;
  /** Sends the form as the browser does (multipart), with the evidence file when given. */
  function post(fields: Record<string, string>, evidence?: { name: string; data: Buffer; type: string }, cookie = admin) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (evidence) body.append('evidence', new Blob([new Uint8Array(evidence.data)], { type: evidence.type }), evidence.name);
    return run(natureAction, new Request(`${ORIGIN}${PATH}`, { method: 'POST', headers: { cookie, Origin: ORIGIN }, body }));
  }
  const donor = { name: 'Luc Bénévole', email: 'luc@example.org', address: '5 rue du Port', postal_code: '44000', city: 'Nantes', country: 'France' };
  const waived = (token: string, over: Record<string, string> = {}) => ({
    intent: 'nature', token, means: 'waived_expenses', description: 'Trajets vers l’entrepôt de Rungis', basis: 'mileage', km: '1200', horsepower: '5', waiver: 'on', received_on: today(), ...donor, ...over,
  });
  const goods = (token: string, over: Record<string, string> = {}) => ({
    intent: 'nature', token, means: 'in_kind', description: 'Dix ordinateurs portables reconditionnés', basis: 'invoice', basis_detail: 'Facture F-2026-118', amount: '1500', received_on: today(), ...donor, name: 'Claire Dubois', email: 'claire@example.org', ...over,
  });
  const expensePdf = { name: 'note de frais.pdf', data: makePdf(), type: 'application/pdf' };
  const gift = (id: string) => db().selectFrom('donations').innerJoin('offline_gifts', 'offline_gifts.payment_id', 'donations.id').selectAll().where('donations.id', '=', id).executeTakeFirstOrThrow();
  const receiptOf = (id: string) => db().selectFrom('receipts').selectAll().where('donation_id', '=', id).orderBy('issued_at', 'desc').executeTakeFirstOrThrow();
  async function record(fields: Record<string, string>, evidence = expensePdf): Promise<string> {
    const r = (await post(fields, evidence)) as Response;
    expect(r.status, JSON.stringify(answer(r).body)).toBe(302);
    return new URL(r.headers.get('Location')!, ORIGIN).searchParams.get('ok')!;
  }

  it('waived expenses on the car’s mileage scale: recorded through the ledger, valued by the scale, the receipt says "abandon de frais" with the description, the evidence kept', async () => {
    const { entry } = await page('?type=waived_expenses');
    const id = await record(waived(entry.token));
    // 1 200 km in a 5 CV car: 1 200 × 0,636 € = 763,20 €.
    expect(await gift(id)).toMatchObject({ provider: 'waived_expenses', status: 'succeeded', purpose: 'gift', amount_minor: 76_320, eur_cents: 76_320, nature: 'abandon_frais', description: 'Trajets vers l’entrepôt de Rungis', valuation_basis: 'mileage', km: 1200, horsepower: 5, electric: 0, waiver_signed: 1, recorded_by: 'Ada Admin' });
    const receipt = await receiptOf(id);
    expect(receipt).toMatchObject({ status: 'issued', amount_cents: 76_320, method: 'Abandon de frais', nature: 'abandon_frais', nature_description: 'Trajets vers l’entrepôt de Rungis (1200 km, voiture de 5 CV, barème kilométrique)' });
    const text = await pdfText(await renderReceiptPdf(receipt));
    expect(text).toContain('Montant en chiffres : 763,20 €');
    expect(text).toContain('Nature du don : abandon de frais (autres) Description : Trajets vers l’entrepôt de Rungis (1200 km, voiture de 5 CV, barème kilométrique) Mode de versement : Abandon de frais');
    const after = await page(`?type=waived_expenses&ok=${id}`);
    expect(after.notice?.replace(/\s/g, ' ')).toBe(`Enregistré : 763,20 € — Luc Bénévole (reçu ${receipt.number}).`);
    expect(after.lines[0]).toMatchObject({ id, nature: 'Abandon de frais', description: 'Trajets vers l’entrepôt de Rungis', evidence: 'note de frais.pdf', status: 'Réussi', voidable: true });
    expect(after.lines[0].basis).toMatch(/^Barème kilométrique \(voiture du bénévole\) — Barème kilométrique fiscal/);
    // The evidence, as sent, for the staff of this screen; no one else.
    const file = (await run(evidenceLoader, new Request(`${ORIGIN}${PATH}/${id}/justificatif`, { headers: { cookie: admin } }), { paymentId: id })) as Response;
    expect(file.headers.get('Content-Type')).toBe('application/pdf');
    expect(file.headers.get('Cache-Control')).toBe('private, no-store');
    expect(Buffer.from(await file.arrayBuffer()).equals(expensePdf.data)).toBe(true);
    expect(answer(await run(evidenceLoader, new Request(`${ORIGIN}${PATH}/${id}/justificatif`, { headers: { cookie: editor } }), { paymentId: id })).status).toBe(403);
    expect(((await run(evidenceLoader, new Request(`${ORIGIN}${PATH}/${id}/justificatif`), { paymentId: id })) as Response).headers.get('Content-Type')).not.toBe('application/pdf');
    // An electric car: 20 % more; the waived expenses typed from their invoices: the amount typed.
    const electric = await record(waived((await page()).entry.token, { electric: 'on', km: '1000' }));
    expect((await gift(electric)).eur_cents).toBe(76_320);
    const invoices = await record(waived((await page()).entry.token, { basis: 'invoices', km: '', horsepower: '', amount: '84,50', description: 'Billets de train Paris–Lyon' }));
    expect(await gift(invoices)).toMatchObject({ eur_cents: 8450, km: null, horsepower: null, valuation_basis: 'invoices' });
  });

  it('a gift in kind valued on an invoice: "en nature" on the receipt, a PNG as evidence, and the same form sent twice records one gift', async () => {
    const { entry } = await page('?type=in_kind');
    const png = { name: 'facture.png', data: await makePng(), type: 'image/png' };
    const id = await record(goods(entry.token), png);
    expect(await gift(id)).toMatchObject({ provider: 'in_kind', eur_cents: 150_000, nature: 'nature', valuation_basis: 'invoice', basis_detail: 'Facture F-2026-118', waiver_signed: null });
    const receipt = await receiptOf(id);
    expect(receipt).toMatchObject({ method: 'Remise de biens', nature: 'nature', nature_description: 'Dix ordinateurs portables reconditionnés' });
    expect(await pdfText(await renderReceiptPdf(receipt))).toContain('Forme du don : déclaration de don manuel Nature du don : en nature (autres) Description : Dix ordinateurs portables reconditionnés Mode de versement : Remise de biens');
    const again = (await post(goods(entry.token), png)) as Response;
    expect(again.headers.get('Location')).toBe(`${PATH}?type=in_kind&ok=deja`);
    expect(await db().selectFrom('donations').select('id').where('provider_ref', '=', `offline:${entry.token}`).execute()).toHaveLength(1);
  });

  it('refuses a wrong entry with French messages, and writes nothing', async () => {
    const count = async (table: 'donations' | 'gift_evidence' | 'receipts') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = [await count('donations'), await count('gift_evidence'), await count('receipts')];
    const { entry } = await page();
    const bad = answer(await post(waived(entry.token, { description: '', km: '', horsepower: '0', waiver: '', company: 'ACME SAS', received_on: '2999-01-01' })));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      description: 'Décrivez ce qui est donné.',
      horsepower: 'La puissance fiscale en CV (carte grise, case P.6), de 1 à 99.',
      km: 'Le nombre de kilomètres parcourus pour la fondation est obligatoire.',
      waiver: 'Le bénévole doit avoir renoncé par écrit au remboursement : cochez la case une fois sa renonciation reçue.',
      company: 'Un abandon de frais est le don d’un bénévole, une personne (article 200 du CGI) : pas d’entreprise.',
      received_on: 'La date du don ne peut pas être dans le futur.',
    });
    expect(answer(await post(goods(entry.token, { basis: 'mileage', amount: '' }))).body.errors).toEqual({ basis: 'Choisissez la base de l’évaluation.', amount: 'Un montant en euros supérieur à 0, 100 000 € au plus (ex. 50 ou 50,00).' });
    expect(answer(await post(goods(entry.token, { basis: 'other', basis_detail: '' }))).body.errors).toEqual({ basis_detail: 'Précisez sur quoi repose l’évaluation.' });
    expect(answer(await post({ ...goods(entry.token), means: 'crypto' })).body.errors).toMatchObject({ means: 'Choisissez : don en nature ou abandon de frais.' });
    // The evidence: required, and judged by its content, not its name.
    expect(answer(await post(goods(entry.token))).body.errors).toEqual({ evidence: 'Joignez le justificatif (facture, note de frais, renonciation) : PDF, JPEG ou PNG.' });
    expect(answer(await post(goods(entry.token), { name: 'facture.pdf', data: HTML, type: 'application/pdf' })).body.errors).toEqual({ evidence: 'facture.pdf n’est ni une image (JPEG, PNG, WebP, GIF) ni un PDF.' });
    expect(answer(await post(goods(entry.token), { name: 'gros.pdf', data: Buffer.concat([makePdf(), Buffer.alloc(5 * 1024 * 1024)]), type: 'application/pdf' })).body.errors).toEqual({ evidence: 'gros.pdf dépasse 5 Mo : réduisez-le ou numérisez-le en plus basse résolution.' });
    // The receipt's address, by the receipts' own rule, beside the evidence's refusal.
    expect(answer(await post(goods(entry.token, { address: '' }))).body.errors).toEqual({ address: 'Adresse : champ obligatoire pour le reçu fiscal.', evidence: 'Joignez le justificatif (facture, note de frais, renonciation) : PDF, JPEG ou PNG.' });
    expect([await count('donations'), await count('gift_evidence'), await count('receipts')]).toEqual(before);
  });

  it('the register, its CSV and the reports keep goods and waived expenses apart from money; a mistyped entry is taken back with a reason', async () => {
    const { entry: single } = (await run(singlePage, new Request(`${ORIGIN}/admin/cheques/don`, { headers: { cookie: admin } }))) as { entry: { token: string } };
    const transfer = new URLSearchParams({ intent: 'gift', token: single.token, means: 'transfer', amount: '100', received_on: today(), ...donor, name: 'Marc Virement', email: 'marc@example.org' });
    expect(((await run(singleAction, new Request(`${ORIGIN}/admin/cheques/don`, { method: 'POST', headers: { cookie: admin, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: transfer }))) as Response).status).toBe(302);
    const report = await donationReport(db(), {});
    const money = await db().selectFrom('donations').select((eb) => eb.fn.sum<number>('eur_cents').as('s')).where('status', '=', 'succeeded').where('provider', 'not in', ['in_kind', 'waived_expenses']).executeTakeFirstOrThrow();
    expect(report.total.cents).toBe(Number(money.s));
    expect(report.byMethod.map((m) => m.provider)).not.toContain('in_kind');
    expect(report.byMethod.map((m) => m.provider)).not.toContain('waived_expenses');
    expect(report.notMoney).toEqual({ in_kind: { gifts: 1, cents: 150_000 }, waived_expenses: { gifts: 3, cents: 76_320 * 2 + 8450 } });

    const year = parisYear(new Date());
    const csv = await ((await run(registerCsv, new Request(`${ORIGIN}/admin/receipts/export.csv?year=${year}`, { headers: { cookie: admin } }))) as Response).text();
    const rows = csv.replace(/^\uFEFF/, '').replace(/"/g, '').trim().split(/\r?\n/);
    expect(rows[0]).toMatch(/;Nature du don;Description du don$/);
    expect(rows.find((r) => r.includes('Dix ordinateurs'))).toMatch(/;Remise de biens;émis;;;En nature;Dix ordinateurs portables reconditionnés$/);
    expect(rows.find((r) => r.startsWith('dont numéraire;'))).toMatch(/^dont numéraire;1;.*;100[.,]00;/);
    expect(rows.find((r) => r.startsWith('dont en nature;'))).toMatch(/^dont en nature;1;.*;1500[.,]00;/);
    expect(rows.find((r) => r.startsWith('dont abandon de frais;'))).toMatch(/^dont abandon de frais;3;.*;1610[.,]90;/);

    // Taken back: the gift and its receipt cancelled with the reason, out of the reports.
    const { lines } = await page();
    const mistyped = lines.find((l) => l.description === 'Billets de train Paris–Lyon')!;
    expect(answer(await post({ intent: 'void', payment_id: mistyped.id, reason: '' })).body.errors).toEqual({ [`void:${mistyped.id}`]: 'Champ obligatoire.' });
    expect(answer(await post({ intent: 'void', payment_id: mistyped.id, reason: 'Montant mal saisi' }, undefined, editor)).status).toBe(403);
    expect(answer(await post({ intent: 'void', payment_id: mistyped.id, reason: 'Montant mal saisi' })).body.toast).toMatchObject({ title: 'Saisie annulée' });
    expect(await gift(mistyped.id)).toMatchObject({ status: 'cancelled', error: 'Montant mal saisi' });
    expect(await receiptOf(mistyped.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'Saisie annulée : Montant mal saisi' });
    expect((await donationReport(db(), {})).notMoney.waived_expenses).toEqual({ gifts: 2, cents: 76_320 * 2 });
    // Éditeurs, once allowed, type these gifts too.
    await run(batchesAction, new Request(`${ORIGIN}/admin/cheques`, { method: 'POST', headers: { cookie: admin, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'intent=editors&editors=on' }));
    const { entry } = await page('', editor);
    const byEditor = (await post(goods(entry.token), expensePdf, editor)) as Response;
    expect(byEditor.status).toBe(302);
  });
});
