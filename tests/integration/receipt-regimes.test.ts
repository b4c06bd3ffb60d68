import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correctReceipt, createAttempt, findById, transition, type NewAttempt } from '~/domain/donations/ledger.server';
import { readTaxDetails, fieldName, type TaxDetails } from '~/domain/receipts/donor-details';
import { declarationFigures, declarationLines, tallyLabel, type DeclarationRow } from '~/domain/receipts/declaration';
import { declarationDeadline, easter, reminderDue } from '~/domain/receipts/declaration-deadline';
import { declarationOf, declarationReminder, markDeclared } from '~/domain/receipts/declaration.server';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { REGIMES, regimeOf, storedRegime } from '~/domain/receipts/regimes';
import { cancelReceipt, issueAnnualStatements, listReceipts, receiptsOfDonation, totalsOf } from '~/domain/receipts/register.server';
import { receiptOffer } from '~/domain/receipts/settings.server';
import { parisYear } from '~/lib/paris';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * Receipts by regime and the 222 bis declaration (issue 42, ADR 035): the regime each receipt
 * stores, a company's receipt on the CERFA n° 16216 model and an IFI receipt under article 978
 * (read back with pdftotext), the annual statement split by regime, and the declaration's figures
 * against the register's own totals, its deadline and the dashboard's reminder.
 */
const ADMIN = { id: null, name: 'Admin' };
const COMPANY: TaxDetails = { ...DONOR, kind: 'company', company: 'ACME SAS', siren: '987654321', name: 'Jean Martin' };
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

describe('regimes and the donor’s IFI option', () => {
  it('a company is 238 bis, an individual 200, or 978 when giving under the IFI; an unknown stored value reads 200', () => {
    expect(regimeOf(COMPANY)).toBe('238bis');
    expect(regimeOf({ ...COMPANY, ifi: true })).toBe('238bis');
    expect(regimeOf(DONOR)).toBe('200');
    expect(regimeOf(IFI)).toBe('978');
    expect(storedRegime('978')).toBe('978');
    expect(storedRegime('238bis')).toBe('238bis');
    expect(storedRegime('x')).toBe('200');
    expect(storedRegime(null)).toBe('200');
  });

  const form = (over: Record<string, string>) => (name: string) => ({ [fieldName('name')]: 'Hélène Roux', [fieldName('address')]: '1 rue A', [fieldName('postalCode')]: '75001', [fieldName('city')]: 'Paris', ...over })[name] ?? '';
  it('reads the IFI box only when the foundation is eligible and the donor is an individual', () => {
    const ticked = form({ [fieldName('ifi')]: 'on' });
    const read = (get: (n: string) => string, ifi?: boolean) => {
      const r = readTaxDetails(get, ifi === undefined ? undefined : { ifi });
      if (!r.ok || !r.details) throw new Error('not read');
      return r.details;
    };
    expect(read(ticked, true).ifi).toBe(true);
    expect(read(ticked, false)).not.toHaveProperty('ifi');
    expect(read(ticked)).not.toHaveProperty('ifi');
    expect(read(form({}), true)).not.toHaveProperty('ifi');
    expect(read(form({ [fieldName('ifi')]: 'yes' }), true)).not.toHaveProperty('ifi');
    const company = form({ [fieldName('ifi')]: 'on', [fieldName('kind')]: 'company', [fieldName('company')]: 'ACME', [fieldName('siren')]: '987654321' });
    expect(read(company, true)).not.toHaveProperty('ifi');
    // What the donor ticked comes back with an error, so it is not lost.
    expect(readTaxDetails(form({ [fieldName('ifi')]: 'on', [fieldName('city')]: '' }), { ifi: true })).toMatchObject({ ok: false, values: { ifi: 'on' } });
  });
});

describe('the 222 bis figures', () => {
  const row = (regime: string, amount_cents: number, nature = 'numeraire', status = 'issued'): DeclarationRow => ({ regime, amount_cents, nature, status });
  it('count valid receipts and their amounts per regime, goods and waived expenses apart from money, cancelled ones left out', () => {
    const f = declarationFigures([
      row('200', 1000),
      row('200', 2500),
      row('200', 9900, 'numeraire', 'cancelled'),
      row('200', 4000, 'nature'),
      row('238bis', 50_000),
      row('238bis', 7000, 'abandon_frais'),
      row('978', 100_000),
      row('978', 300, 'numeraire', 'cancelled'),
      row('legacy', 100),
    ]);
    expect(f.regimes['200']).toEqual({ money: { count: 3, cents: 3600 }, inKind: { count: 1, cents: 4000 }, total: { count: 4, cents: 7600 } });
    expect(f.regimes['238bis']).toEqual({ money: { count: 1, cents: 50_000 }, inKind: { count: 1, cents: 7000 }, total: { count: 2, cents: 57_000 } });
    expect(f.regimes['978']).toEqual({ money: { count: 1, cents: 100_000 }, inKind: { count: 0, cents: 0 }, total: { count: 1, cents: 100_000 } });
    expect(f.total).toEqual({ count: 7, cents: 164_600 });
  });

  it('are all zero for a year without receipts', () => {
    const f = declarationFigures([]);
    for (const r of REGIMES) expect(f.regimes[r]).toEqual({ money: { count: 0, cents: 0 }, inKind: { count: 0, cents: 0 }, total: { count: 0, cents: 0 } });
    expect(f.total).toEqual({ count: 0, cents: 0 });
  });

  it('as CSV lines: one per regime then the total, money and in kind apart, euros with a point', () => {
    const f = declarationFigures([row('200', 1050), row('200', 4000, 'nature'), row('238bis', 50_000), row('978', 100_001)]);
    expect(declarationLines(2025, f)).toEqual([
      ['2025', 'Article 200 du CGI', '2', '50.50', '1', '10.50', '1', '40.00'],
      ['2025', 'Article 238 bis du CGI', '1', '500.00', '1', '500.00', '0', '0.00'],
      ['2025', 'Article 978 du CGI', '1', '1000.01', '1', '1000.01', '0', '0.00'],
      ['2025', 'Total', '4', '1550.51', '3', '1510.51', '1', '40.00'],
    ]);
    expect(tallyLabel({ count: 1, cents: 1050 })).toBe('10,50 € (1 reçu)');
    expect(tallyLabel({ count: 2, cents: 0 })).toBe('0,00 € (2 reçus)');
  });
});

describe('the 222 bis deadline and reminder', () => {
  it('knows Easter', () => {
    expect(['2016', '2024', '2025', '2026', '2035', '2038'].map((y) => easter(Number(y)).toISOString().slice(0, 10))).toEqual(['2016-03-27', '2024-03-31', '2025-04-20', '2026-04-05', '2035-03-25', '2038-04-25']);
  });

  it('is the second working day after 1 May of the next year: weekends and Ascension skipped', () => {
    expect(declarationDeadline(2023)).toBe('2024-05-03'); // Wed 1 May: Thu, Fri
    expect(declarationDeadline(2024)).toBe('2025-05-05'); // Thu 1 May: Fri, Mon
    expect(declarationDeadline(2025)).toBe('2026-05-05'); // Fri 1 May: Mon, Tue
    expect(declarationDeadline(2026)).toBe('2027-05-04'); // Sat 1 May: Mon, Tue
    expect(declarationDeadline(2027)).toBe('2028-05-03'); // Mon 1 May: Tue, Wed
    expect(declarationDeadline(2034)).toBe('2035-05-04'); // Tue 1 May: Wed, (Ascension Thu 3 May), Fri
  });

  it('is reminded from six weeks before the deadline on', () => {
    expect(reminderDue(2025, '2026-03-23')).toBe(false);
    expect(reminderDue(2025, '2026-03-24')).toBe(true);
    expect(reminderDue(2025, '2026-05-05')).toBe(true);
    expect(reminderDue(2025, '2026-09-01')).toBe(true);
    expect(reminderDue(2025, '2025-12-31')).toBe(false);
  });
});

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
    expect(text).toContain('Dénomination : ACME SAS');
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
    expect(await declarationReminder(t.db, inWindow)).toEqual({ year, deadline, overdue: false, receipts: 3 });
    expect(await declarationReminder(t.db, new Date(`${year + 1}-06-01T10:00:00Z`))).toEqual({ year, deadline, overdue: true, receipts: 3 });
    // A year without receipts has nothing to declare.
    expect(await declarationReminder(t.db, new Date(`${year + 2}-04-20T10:00:00Z`))).toBeNull();
    expect(await markDeclared(t.db, ADMIN, year, new Date('2030-01-02T03:04:05.000Z'))).toBe(true);
    expect(await markDeclared(t.db, ADMIN, year)).toBe(false);
    expect(await declarationReminder(t.db, inWindow)).toBeNull();
    expect((await declarationOf(t.db, year)).done).toEqual({ at: '2030-01-02T03:04:05.000Z', by: 'Admin' });
    const audited = await t.db.selectFrom('audit_log').select(['action', 'target', 'user_name']).where('action', '=', 'receipts.declaration').execute();
    expect(audited).toEqual([{ action: 'receipts.declaration', target: `Déclaration des dons ${year} (article 222 bis)`, user_name: 'Admin' }]);
  });
});
