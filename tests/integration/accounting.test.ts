import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { accountingYear } from '~/domain/accounting/export.server';
import { runtime } from '~/lib/runtime.server';
import { action as chartAction, loader as chartLoader } from '~/routes/accounting/chart';
import { loader as fecLoader } from '~/routes/accounting/fec';
import { loader as csvLoader } from '~/routes/accounting/journal-csv';
import { loader as screenLoader } from '~/routes/accounting/screen';
import { describeEachDialect } from '../support/db';
import { checkFec, decodeLatin9 } from '../support/fec-check';
import { ledgerRow } from '../support/ledger-rows';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'accounting-'.padEnd(48, 'a');
const ORIGIN = 'https://fondation.example.org';
const SIREN = '732829320';

/** The chart's form as the screen sends it, defaults but the SIREN. */
function chartForm(version: number, values: Record<string, string>, patch: Record<string, string> = {}): Record<string, string> {
  return { ...values, version: String(version), siren: SIREN, ...patch };
}

/**
 * The accounting export (issue 42, ADR 034) on the ledger's own rows, through the routes as React
 * Router calls them: the year 2025's entries for a card gift and its fee, a payout, a refund, a
 * lost dispute and its fee, dues, a deposited cheque, a gift in kind (no entry) and a gift made
 * on Paris's 1 January; the FEC passing the checker written from the specification; the CSV; the
 * chart's form refused with French messages, saved and audited, a stale save refused; Éditeurs kept out.
 */
describeEachDialect('accounting export, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let admin = '';
  let editor = '';
  const db = () => runtime().db;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva Éditrice', email: 'eva@fondation.example.org', role: 'Éditeur' });
    await db()
      .insertInto('donations')
      .values([
        ledgerRow('g1', '2025-03-10T10:00:00.000Z', { provider_ref: 'pi_card', amount_minor: 10000, eur_cents: 10000 }),
        ledgerRow('g2', '2025-04-01T10:00:00.000Z', { provider_ref: 'pi_refund', amount_minor: 5000, eur_cents: 5000, status: 'refunded', updated_at: '2025-04-09T10:00:00.000Z' }),
        ledgerRow('g3', '2025-05-01T10:00:00.000Z', { provider_ref: 'pi_dispute', amount_minor: 3000, eur_cents: 3000, status: 'refunded' }),
        ledgerRow('g4', '2025-06-10T10:00:00.000Z', { provider: 'paypal', provider_ref: 'CAP-1', amount_minor: 4000, eur_cents: 4000, purpose: 'dues' }),
        ledgerRow('g5', '2025-07-01T10:00:00.000Z', { provider: 'cheque', provider_ref: 'offline:t5', secondary_ref: '1234567', amount_minor: 2500, eur_cents: 2500 }),
        ledgerRow('g6', '2025-08-01T10:00:00.000Z', { provider: 'in_kind', provider_ref: 'offline:t6', amount_minor: 30000, eur_cents: 30000 }),
        ledgerRow('g7', '2024-12-31T23:30:00.000Z', { provider_ref: 'pi_newyear', amount_minor: 2000, eur_cents: 2000 }),
        ledgerRow('g8', '2026-01-02T10:00:00.000Z', { provider_ref: 'pi_next', amount_minor: 9900, eur_cents: 9900 }),
        ledgerRow('g9', '2025-09-01T10:00:00.000Z', { provider_ref: 'pi_failed', amount_minor: 9900, eur_cents: 9900, status: 'failed' }),
      ])
      .execute();
    const fetched = '2025-12-31T00:00:00.000Z';
    const mv = (id: string, donation: string | null, kind: string, gross: number, fee: number, at: string, payout: string | null = null) => ({ id, provider: 'stripe', move_ref: id, donation_id: donation, kind, gross_minor: gross, fee_minor: fee, net_minor: gross - fee, currency: 'EUR', occurred_at: at, available_at: null, payout_ref: payout, fetched_at: fetched });
    await db()
      .insertInto('provider_balance_moves')
      .values([mv('txn_card', 'g1', 'payment', 10000, 175, '2025-03-10T10:00:01.000Z', 'po_1'), mv('txn_refund', 'g2', 'refund', -5000, 0, '2025-04-05T10:00:00.000Z'), mv('txn_dispute', 'g3', 'dispute', -3000, 1500, '2025-05-20T10:00:00.000Z')])
      .execute();
    await db()
      .insertInto('provider_payouts')
      .values([
        { id: 'p1', provider: 'stripe', payout_ref: 'po_1', amount_minor: 9825, currency: 'EUR', status: 'paid', created_at: '2025-03-12T08:00:00.000Z', arrival_at: '2025-03-14T08:00:00.000Z', fetched_at: fetched },
        { id: 'p2', provider: 'stripe', payout_ref: 'po_failed', amount_minor: 100, currency: 'EUR', status: 'failed', created_at: '2025-03-12T08:00:00.000Z', arrival_at: null, fetched_at: fetched },
      ])
      .execute();
    await db().insertInto('payment_disputes').values({ id: 'd1', donation_id: 'g3', provider: 'stripe', dispute_ref: 'dp_1', outcome: 'lost', reason: 'fraudulent', amount_minor: 3000, currency: 'EUR', at: '2025-06-01T10:00:00.000Z' }).execute();
    await db().insertInto('gift_batches').values({ id: 'b1', number: 1, status: 'deposited', opened_on: '2025-07-01', opened_by: 'a1', deposited_on: '2025-07-03', deposited_by: 'a1', reconciled_on: null, reconciled_by: null, credited_cents: null, created_at: '2025-07-01T09:00:00.000Z' }).execute();
    await db()
      .insertInto('offline_gifts')
      .values({ payment_id: 'g5', batch_id: 'b1', nature: 'numeraire', bank: 'Banque', drawer: 'Dupont', recorded_by: 'a1', created_at: '2025-07-01T10:00:00.000Z', description: null, valuation_basis: null, basis_detail: null, km: null, horsepower: null, electric: null, waiver_signed: null })
      .execute();
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function call(route: (args: never) => unknown, path: string, cookie = '', body?: Record<string, string>) {
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params: {}, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }

  it('the year’s entries: gift and fee, payout, refund, lost dispute and its fee, dues, cheque and its deposit; nothing for a gift in kind', async () => {
    const y = await accountingYear(db(), 2025);
    expect(y.entries.map((e) => [e.num, e.date, e.piece, e.label, e.lines.map((l) => `${l.debit ? 'D' : 'C'} ${l.account.num} ${l.debit || l.credit}`).join(' / ')])).toEqual([
      [1, '2025-01-01', 'pi_newyear', 'Don, Carte (Stripe)', 'D 5171 2000 / C 7541 2000'],
      [2, '2025-03-10', 'pi_card', 'Don, Carte (Stripe)', 'D 5171 10000 / C 7541 10000'],
      [3, '2025-03-10', 'txn_card', 'Frais Stripe (payment)', 'D 627 175 / C 5171 175'],
      [4, '2025-03-12', 'po_1', 'Versement Stripe émis', 'D 58 9825 / C 5171 9825'],
      [5, '2025-03-14', 'po_1', 'Versement Stripe reçu en banque', 'D 512 9825 / C 58 9825'],
      [6, '2025-04-01', 'pi_refund', 'Don, Carte (Stripe)', 'D 5171 5000 / C 7541 5000'],
      [7, '2025-04-05', 'pi_refund', 'Remboursement : don, Carte (Stripe)', 'D 7541 5000 / C 5171 5000'],
      [8, '2025-05-01', 'pi_dispute', 'Don, Carte (Stripe)', 'D 5171 3000 / C 7541 3000'],
      [9, '2025-05-20', 'txn_dispute', 'Frais Stripe (dispute)', 'D 627 1500 / C 5171 1500'],
      [10, '2025-06-01', 'pi_dispute', 'Contestation perdue : don, Carte (Stripe)', 'D 7541 3000 / C 5171 3000'],
      [11, '2025-06-10', 'CAP-1', 'Cotisation, PayPal', 'D 5172 4000 / C 756 4000'],
      [12, '2025-07-01', '1234567', 'Don, Chèque', 'D 5112 2500 / C 7541 2500'],
      [13, '2025-07-03', 'REMISE-1', 'Remise de chèques n° 1', 'D 512 2500 / C 5112 2500'],
    ]);
    expect(y.totals).toEqual({ entries: 13, lines: 26, debit: 58325, credit: 58325 });
    expect(y.skipped).toEqual({ noEuroValue: 0, foreignCurrency: 0, notMoney: { gifts: 1, cents: 30000 } });
    expect((await accountingYear(db(), 2026)).entries.map((e) => e.piece)).toEqual(['pi_next']);
  });

  it('Éditeurs are kept out of every screen and download', async () => {
    for (const [route, path] of [[screenLoader, '/admin/comptabilite'], [chartLoader, '/admin/comptabilite/plan'], [fecLoader, '/admin/comptabilite/fec?annee=2025'], [csvLoader, '/admin/comptabilite/journal.csv?annee=2025']] as const) {
      expect(answer(await call(route, path, editor)).status).toBe(403);
    }
    expect(answer(await call(chartAction, '/admin/comptabilite/plan', editor, { version: '0' })).status).toBe(403);
  });

  it('no FEC without a SIREN; the screen says so and still shows the year balanced', async () => {
    expect(((await call(fecLoader, '/admin/comptabilite/fec?annee=2025', admin)) as Response).status).toBe(409);
    const screen = answer(await call(screenLoader, '/admin/comptabilite?annee=2025', admin)).body as { fecName: string | null; totals: { entries: number; balanced: boolean; debit: string } };
    expect(screen.fecName).toBeNull();
    expect(screen.totals).toMatchObject({ entries: 13, balanced: true });
    expect(((await call(screenLoader, '/admin/comptabilite?annee=1999', admin)) as Response).status).toBe(404);
  });

  it('the chart: refused with French messages and nothing written, saved and audited, a stale save refused', async () => {
    const { version, values } = answer(await call(chartLoader, '/admin/comptabilite/plan', admin)).body as { version: number; values: Record<string, string> };
    expect(version).toBe(0);
    expect(values['accounts.gifts.num']).toBe('7541');
    const refused = answer(await call(chartAction, '/admin/comptabilite/plan', admin, chartForm(0, values, { siren: '732829321', 'accounts.fees.num': '62a', 'journals.bank.code': 'DON', fiscalStartMonth: '13', 'accounts.gifts.label': 'a|b' })));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({
      siren: 'Un SIREN : 9 chiffres dont la clé est juste (ou vide pour celui des reçus fiscaux).',
      'accounts.fees.num': 'Un numéro de compte : 2 à 10 chiffres, le premier étant la classe (1 à 8).',
      'journals.bank.code': 'Deux journaux différents.',
      fiscalStartMonth: 'Un mois de 1 à 12.',
      'accounts.gifts.label': 'Sans barre verticale ni tabulation.',
    });
    expect(await db().selectFrom('settings').select('key').where('key', '=', 'accounting').executeTakeFirst()).toBeUndefined();
    const saved = answer(await call(chartAction, '/admin/comptabilite/plan', admin, chartForm(0, values, { 'accounts.gifts.label': 'Dons manuels du public' })));
    expect(saved.status).toBe(200);
    const audited = await db().selectFrom('audit_log').select(['action', 'user_name']).where('action', '=', 'accounting.settings').execute();
    expect(audited).toEqual([{ action: 'accounting.settings', user_name: 'Ada Admin' }]);
    expect(answer(await call(chartAction, '/admin/comptabilite/plan', admin, chartForm(0, values))).status).toBe(409);
  });

  it('the FEC: named SIRENFEC + closing day, ISO 8859-15, passing the checker written from the specification', async () => {
    const res = (await call(fecLoader, '/admin/comptabilite/fec?annee=2025', admin)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/plain; charset=iso-8859-15');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="${SIREN}FEC20251231.txt"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(checkFec(bytes, { fileName: `${SIREN}FEC20251231.txt`, siren: SIREN, opening: '20250101', closing: '20251231' })).toEqual([]);
    const lines = decodeLatin9(bytes).split('\r\n');
    expect(lines).toHaveLength(1 + 26 + 1);
    expect(lines[1]).toBe('DON|Dons et cotisations|1|20250101|5171|Solde Stripe|||pi_newyear|20250101|Don, Carte (Stripe)|20,00|0,00|||20250101||');
    expect(lines[2]).toBe('DON|Dons et cotisations|1|20250101|7541|Dons manuels du public|||pi_newyear|20250101|Don, Carte (Stripe)|0,00|20,00|||20250101||');
    // "Chèque": its è is one byte (0xE8) in ISO 8859-15.
    expect(bytes.includes(0xe8)).toBe(true);
  });

  it('the CSV journal of the year', async () => {
    const res = (await call(csvLoader, '/admin/comptabilite/journal.csv?annee=2025', admin)) as Response;
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="journal-2025.csv"');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.split('\r\n')[0]).toBe('\uFEFF"N° écriture";"Journal";"Date";"Compte";"Libellé du compte";"Pièce";"Libellé";"Débit";"Crédit";"Montant en devise";"Devise"');
    expect(text).toContain('"13";"DON";"2025-07-03";"512";"Banque";"REMISE-1";"Remise de chèques n° 1";"25.00";"0.00";"";""');
  });

  it('a fiscal year opening in July: 2025-2026 closes on 30 June, its file named so', async () => {
    const { version, values } = answer(await call(chartLoader, '/admin/comptabilite/plan', admin)).body as { version: number; values: Record<string, string> };
    expect(answer(await call(chartAction, '/admin/comptabilite/plan', admin, chartForm(version, values, { fiscalStartMonth: '7' }))).status).toBe(200);
    const y = await accountingYear(db(), 2025);
    expect([y.name, y.first, y.last]).toEqual(['2025-2026', '2025-07-01', '2026-06-30']);
    expect(y.entries.map((e) => e.piece)).toEqual(['1234567', 'REMISE-1', 'pi_next']);
    const res = (await call(fecLoader, '/admin/comptabilite/fec?annee=2025', admin)) as Response;
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="${SIREN}FEC20260630.txt"`);
    expect(checkFec(new Uint8Array(await res.arrayBuffer()), { fileName: `${SIREN}FEC20260630.txt`, siren: SIREN, opening: '20250701', closing: '20260630' })).toEqual([]);
  });
});
