import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTING_SETTINGS } from '~/domain/accounting/chart';
import { getAccountingSettings, saveAccountingSettings } from '~/domain/accounting/settings.server';
import { correctReceipt, createAttempt, findById, transition, type NewAttempt } from '~/domain/donations/ledger.server';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import { declarationDeadline } from '~/domain/receipts/declaration-deadline';
import { declarationOf, declarationReminder, markDeclared } from '~/domain/receipts/declaration.server';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { REGIMES } from '~/domain/receipts/regimes';
import { cancelReceipt, issueAnnualStatements, listReceipts, receiptsOfDonation, totalsOf } from '~/domain/receipts/register.server';
import { receiptOffer } from '~/domain/receipts/settings.server';
import { parisYear } from '~/lib/paris';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * Receipts by regime and the 222 bis declaration (issue 42, ADR 035), on the database (the pure
 * rules: tests/unit/receipt-regimes.test.ts): the regime each receipt stores, a company's receipt on the CERFA n° 16216 model and an IFI receipt under article 978
 * (read back with pdftotext), the annual statement split by regime, and the declaration's figures
 * against the register's own totals, its deadline and the dashboard's reminder.
 */
const ADMIN = { id: null, name: 'Admin' };
const COMPANY: TaxDetails = { ...DONOR, kind: 'company', company: 'ACME', legalForm: 'SAS', siren: '987654321', name: 'Jean Martin' };
const IFI: TaxDetails = { ...DONOR, name: 'Hélène Roux', ifi: true };
const YEAR = parisYear(new Date());

/** The PDF's text as pdftotext (poppler) reads it, whitespace folded. */
function pdftotext(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'regimes-'));
  try {
    const file = join(dir, 'r.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeEachDialect('receipts by regime on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await setReceiptSettings(t.db, { ifiEligible: true });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const attempt = (donor: TaxDetails, over: Partial<NewAttempt> = {}): NewAttempt => ({
    provider: 'stripe',
    amountMinor: 50_000,
    currency: 'EUR',
    eurCents: 50_000,
    frequency: 'once',
    language: 'fr',
    donorEmail: 'donateur@example.org',
    taxDetails: JSON.stringify(donor),
    ...over,
  });
  async function receiptOf(donor: TaxDetails, over: Partial<NewAttempt> = {}) {
    const d = await createAttempt(t.db, attempt(donor, over));
    await transition(t.db, { id: d.id }, 'succeeded');
    return (await receiptsOfDonation(t.db, (await findById(t.db, d.id))!.id))[0];
  }

  it('offers the IFI option only when receipts are on and the foundation says it is eligible', async () => {
    expect(await receiptOffer(t.db)).toEqual({ receipts: true, ifi: true });
    await setReceiptSettings(t.db, { ifiEligible: false });
    expect(await receiptOffer(t.db)).toEqual({ receipts: true, ifi: false });
    await setReceiptSettings(t.db, { ifiEligible: true, enabled: false });
    expect(await receiptOffer(t.db)).toEqual({ receipts: false, ifi: false });
    await setReceiptSettings(t.db, { ifiEligible: true });
  });

  it('a company’s 500 € gift gets a receipt on the CERFA n° 16216 model under article 238 bis, in the same numbering series', async () => {
    const individual = await receiptOf(DONOR);
    const r = await receiptOf(COMPANY);
    expect(r.regime).toBe('238bis');
    expect(individual.regime).toBe('200');
    expect(r.seq).toBe(individual.seq + 1);
    const text = pdftotext(await renderReceiptPdf(r));
    expect(text).toContain('Reçu des dons et versements effectués par les entreprises');
    expect(text).toContain('au titre de l’article 238 bis du code général des impôts');
    expect(text).toContain('CERFA n° 16216');
    expect(text).not.toContain('11580');
    expect(text).toContain('Organisme bénéficiaire des dons et versements');
    expect(text).toContain('Entreprise donatrice');
    expect(text).toContain('Dénomination : ACME Forme juridique : SAS N° SIREN : 987654321');
    expect(text).toContain('N° SIREN : 987654321');
    expect(text).toContain('Montant en chiffres : 500,00 €');
    expect(text).toContain('Somme en toutes lettres : cinq cents euros');
    expect(text).toContain('Date du versement ou du don');
    for (const box of ['Acte authentique', 'Acte sous seing privé', 'Déclaration de don manuel', 'Autres', 'Numéraire', 'Titres de sociétés cotés', 'Remise d’espèces', 'Chèque', 'Virement, prélèvement, carte bancaire']) expect(text).toContain(box);
    expect(text).toContain('ouvrent droit à la réduction d’impôt prévue à l’article 238 bis du code général des impôts');
    expect(text).toContain(`Numéro d’ordre du reçu : ${r.number}`);
    // An individual's stays on CERFA n° 11580, under article 200.
    const own = pdftotext(await renderReceiptPdf(individual));
    expect(own).toContain('CERFA n° 11580');
    expect(own).toContain('prévue à l’article 200 du CGI');
    expect(own).not.toContain('978 du CGI)');
  });

  it('an IFI gift’s receipt states article 978 and the 75 % relief within 50 000 €', async () => {
    const r = await receiptOf(IFI, { eurCents: 10_000, amountMinor: 10_000 });
    expect(r.regime).toBe('978');
    const text = pdftotext(await renderReceiptPdf(r));
    expect(text).toContain('prévue à l’article 978 du CGI');
    expect(text).toContain('Taux de réduction : 75 % du montant du don, dans la limite de 50 000 € par an (article 978 du CGI)');
    expect(text).toContain('impôt sur la fortune immobilière (IFI)');
    expect(text).not.toContain('66 %');
  });

  it('a correction keeps the regime its donor gives: an IFI receipt stays 978, a company corrected to an individual becomes 200', async () => {
    const ifi = await receiptOf(IFI);
    const fixed = await correctReceipt(t.db, ADMIN, ifi.id, { ...IFI, city: 'Lyon' }, '');
    expect(fixed.ok && fixed.receipt.regime).toBe('978');
    const company = await receiptOf(COMPANY);
    const individual = await correctReceipt(t.db, ADMIN, company.id, DONOR, '');
    expect(individual.ok && individual.receipt.regime).toBe('200');
  });

  it('the year’s 222 bis figures equal the register’s totals of valid receipts per regime (cancelled and corrected ones once)', async () => {
    await receiptOf(COMPANY, { eurCents: 120_000, amountMinor: 120_000 });
    const cancelled = await receiptOf(DONOR, { eurCents: 777, amountMinor: 777 });
    await cancelReceipt(t.db, ADMIN, cancelled.id, 'Erreur');
    const goods = await receiptOf(DONOR, { eurCents: 30_000, amountMinor: 30_000 });
    await t.db.updateTable('receipts').set({ nature: 'nature' }).where('id', '=', goods.id).execute();
    const refunded = await createAttempt(t.db, attempt(IFI, { eurCents: 4000, amountMinor: 4000 }));
    await transition(t.db, { id: refunded.id }, 'succeeded');
    await transition(t.db, { id: refunded.id }, 'refunded');

    const register = await listReceipts(t.db, YEAR);
    const { figures } = await declarationOf(t.db, YEAR);
    for (const g of REGIMES) {
      const totals = totalsOf(register.filter((r) => r.regime === g));
      expect(figures.regimes[g].total, g).toEqual({ count: totals.issuedCount, cents: totals.issuedCents });
    }
    expect(figures.total).toEqual({ count: totalsOf(register).issuedCount, cents: totalsOf(register).issuedCents });
    expect(figures.regimes['200'].inKind).toEqual({ count: 1, cents: 30_000 });
    expect(figures.regimes['238bis'].total.count).toBeGreaterThan(0);
    expect(figures.regimes['978'].total.count).toBeGreaterThan(0);
    expect(totalsOf(register).cancelledCount).toBeGreaterThan(0);
  });

  it('the annual statement never mixes regimes: one receipt per donor and regime, counted in the year of its gifts', async () => {
    const year = YEAR - 2;
    await setReceiptSettings(t.db, { ifiEligible: true, model: 'annual_monthly' });
    const email = 'mensuel@example.org';
    for (const [donor, cents, month] of [[DONOR, 1000, 1], [IFI, 2000, 2], [DONOR, 1500, 3], [COMPANY, 5000, 4], [IFI, 3000, 5]] as const) {
      const d = await createAttempt(t.db, attempt(donor, { frequency: 'monthly', donorEmail: email, eurCents: cents, amountMinor: cents }));
      await transition(t.db, { id: d.id }, 'succeeded');
      await t.db.updateTable('donations').set({ succeeded_at: new Date(Date.UTC(year, month, 10)).toISOString() }).where('id', '=', d.id).execute();
    }
    const issued = await issueAnnualStatements(t.db, year, new Date(Date.UTC(year + 1, 0, 5)));
    await setReceiptSettings(t.db, { ifiEligible: true });
    expect(issued.map((r) => [r.regime, r.amount_cents]).sort()).toEqual([['200', 2500], ['238bis', 5000], ['978', 5000]]);
    expect(issued.every((r) => r.year === year + 1 && r.kind === 'annual')).toBe(true);
    expect(pdftotext(await renderReceiptPdf(issued.find((r) => r.regime === '238bis')!))).toContain(`Période des versements : année ${year} (reçu récapitulatif)`);
    // Numbered in January of the next year, declared with the gifts' year.
    const { figures } = await declarationOf(t.db, year);
    expect(figures.regimes['200'].total).toEqual({ count: 1, cents: 2500 });
    expect(figures.regimes['238bis'].total).toEqual({ count: 1, cents: 5000 });
    expect(figures.regimes['978'].total).toEqual({ count: 1, cents: 5000 });
    expect((await declarationOf(t.db, year + 1)).figures.total.count).toBe(0);
  });

  it('the dashboard reminds last year’s declaration from six weeks before its deadline until an Admin marks it made, once, audited', async () => {
    const year = YEAR - 2;
    const deadline = declarationDeadline(year);
    const inWindow = new Date(`${year + 1}-04-20T10:00:00Z`);
    expect(await declarationReminder(t.db, new Date(`${year + 1}-03-01T10:00:00Z`))).toBeNull();
    expect(await declarationReminder(t.db, inWindow)).toEqual({ year, period: String(year), deadline, overdue: false, receipts: 3 });
    expect(await declarationReminder(t.db, new Date(`${year + 1}-06-01T10:00:00Z`))).toEqual({ year, period: String(year), deadline, overdue: true, receipts: 3 });
    // A year without receipts has nothing to declare.
    expect(await declarationReminder(t.db, new Date(`${year + 2}-04-20T10:00:00Z`))).toBeNull();
    expect(await markDeclared(t.db, ADMIN, year, new Date('2030-01-02T03:04:05.000Z'))).toBe(true);
    expect(await markDeclared(t.db, ADMIN, year)).toBe(false);
    expect(await declarationReminder(t.db, inWindow)).toBeNull();
    expect((await declarationOf(t.db, year)).done).toEqual({ at: '2030-01-02T03:04:05.000Z', by: 'Admin' });
    const audited = await t.db.selectFrom('audit_log').select(['action', 'target', 'user_name']).where('action', '=', 'receipts.declaration').execute();
    expect(audited).toEqual([{ action: 'receipts.declaration', target: `Déclaration des dons ${year} (article 222 bis)`, user_name: 'Admin' }]);
  });

  it('with a fiscal year opening in July, counts the receipts of gifts received from 1 July to 30 June (Paris days), due three months after its close', async () => {
    const setStart = async (fiscalStartMonth: number) => {
      const { version } = await getAccountingSettings(t.db);
      expect(await saveAccountingSettings(t.db, ADMIN, { ...DEFAULT_ACCOUNTING_SETTINGS, fiscalStartMonth }, version)).toBe('ok');
    };
    const year = YEAR - 4;
    const paidAt = async (cents: number, at: string) => {
      const r = await receiptOf(DONOR, { eurCents: cents, amountMinor: cents });
      await t.db.updateTable('receipts').set({ paid_at: at }).where('id', '=', r.id).execute();
    };
    await paidAt(101, `${year}-06-30T21:59:59.000Z`); // 23:59:59 on 30 June in Paris: the year before
    await paidAt(202, `${year}-06-30T22:00:00.000Z`); // 00:00 on 1 July in Paris: the first instant
    await paidAt(404, `${year + 1}-06-30T21:59:59.000Z`); // the last instant
    await paidAt(808, `${year + 1}-06-30T22:00:00.000Z`); // the next year's first
    const calendar = await declarationOf(t.db, year);
    expect(calendar.label).toBe(String(year));
    expect(calendar.figures.total).toEqual({ count: 2, cents: 101 + 202 }); // January to December in Paris
    await setStart(7);
    try {
      const d = await declarationOf(t.db, year);
      expect(d.startMonth).toBe(7);
      expect(d.label).toBe(`Exercice ${year}-${year + 1} (1er juillet ${year} – 30 juin ${year + 1})`);
      expect(d.figures.total).toEqual({ count: 2, cents: 606 });
      expect(d.figures.regimes['200'].money).toEqual({ count: 2, cents: 606 });
      expect((await declarationOf(t.db, year - 1)).figures.total).toEqual({ count: 1, cents: 101 });
      expect(d.deadline).toBe(`${year + 1}-09-30`);
      // The dashboard reminds the last closed fiscal year, from six weeks before 30 September.
      expect(await declarationReminder(t.db, new Date(`${year + 1}-08-18T10:00:00Z`))).toBeNull();
      const due = { year, period: `de l’exercice ${year}-${year + 1}`, deadline: `${year + 1}-09-30`, receipts: 2 };
      expect(await declarationReminder(t.db, new Date(`${year + 1}-08-19T10:00:00Z`))).toEqual({ ...due, overdue: false });
      expect(await declarationReminder(t.db, new Date(`${year + 1}-10-01T10:00:00Z`))).toEqual({ ...due, overdue: true });
      // Before 1 July the fiscal year is not closed: the reminder is still the one before's, overdue since 30 September.
      expect(await declarationReminder(t.db, new Date(`${year + 1}-06-29T10:00:00Z`))).toEqual({ year: year - 1, period: `de l’exercice ${year - 1}-${year}`, deadline: `${year}-09-30`, receipts: 1, overdue: true });
      expect(await markDeclared(t.db, ADMIN, year)).toBe(true);
      expect(await declarationReminder(t.db, new Date(`${year + 1}-10-01T10:00:00Z`))).toBeNull();
    } finally {
      await setStart(1);
    }
  });
});
