import { describe, expect, it } from 'vitest';
import { fieldName, readTaxDetails, type TaxDetails } from '~/domain/receipts/donor-details';
import { declarationFigures, declarationLines, tallyLabel, type DeclarationRow } from '~/domain/receipts/declaration';
import { declarationDeadline, easter, reminderDue } from '~/domain/receipts/declaration-deadline';
import { REGIMES, REGIME_LABELS, regimeOf, storedRegime } from '~/domain/receipts/regimes';
import { dayInWords, fiscalYearLabel } from '~/domain/fiscal-year/fiscal-year';
import { parisDayStart } from '~/lib/paris';

/** The rules of receipts by regime and of the 222 bis declaration (issue 42, ADR 035), without a database. */
const DONOR: TaxDetails = { kind: 'individual', name: 'Awa Diallo', company: '', siren: '', address: '3 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'France' };
const COMPANY: TaxDetails = { ...DONOR, kind: 'company', company: 'ACME SAS', siren: '987654321', name: 'Jean Martin' };
const IFI: TaxDetails = { ...DONOR, name: 'Hélène Roux', ifi: true };

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
    expect(REGIME_LABELS).toEqual({ '200': 'Article 200 — particuliers (impôt sur le revenu)', '238bis': 'Article 238 bis — entreprises', '978': 'Article 978 — IFI' });
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
    const company = form({ [fieldName('ifi')]: 'on', [fieldName('kind')]: 'company', [fieldName('company')]: 'ACME', [fieldName('legalForm')]: 'SAS', [fieldName('siren')]: '987654321' });
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
    expect(declarationLines('2025-2026', f).map((l) => l[0])).toEqual(['2025-2026', '2025-2026', '2025-2026', '2025-2026']);
    expect(tallyLabel({ count: 1, cents: 1050 })).toBe('10,50 € (1 reçu)');
    expect(tallyLabel({ count: 2, cents: 0 })).toBe('0,00 € (2 reçus)');
  });
});

describe('the 222 bis deadline and reminder', () => {
  it('knows Easter', () => {
    expect(['2016', '2024', '2025', '2026', '2035', '2038'].map((y) => easter(Number(y)).toISOString().slice(0, 10))).toEqual(['2016-03-27', '2024-03-31', '2025-04-20', '2026-04-05', '2035-03-25', '2038-04-25']);
    // The earliest and latest dates, and years of each century rule.
    const known: Record<number, string> = { 1818: '1818-03-22', 1943: '1943-04-25', 1954: '1954-04-18', 1981: '1981-04-19', 2000: '2000-04-23', 2008: '2008-03-23', 2011: '2011-04-24', 2019: '2019-04-21', 2049: '2049-04-18', 2076: '2076-04-19', 2100: '2100-03-28', 2285: '2285-03-22' };
    for (const [y, day] of Object.entries(known)) expect(easter(Number(y)).toISOString().slice(0, 10), y).toBe(day);
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
    // A fiscal year opening in July (2025-2026) is due on 30 September 2026: reminded from 19 August.
    expect(reminderDue(2025, '2026-08-18', 7)).toBe(false);
    expect(reminderDue(2025, '2026-08-19', 7)).toBe(true);
    expect(reminderDue(2025, '2026-03-24', 7)).toBe(false);
  });

  it('for a fiscal year not closing on 31 December, is three months after its close, the day kept within the month', () => {
    expect(declarationDeadline(2025, 7)).toBe('2026-09-30'); // closes 30 June 2026
    expect(declarationDeadline(2025, 4)).toBe('2026-06-30'); // closes 31 March 2026 (no 31 June)
    expect(declarationDeadline(2025, 10)).toBe('2026-12-30'); // closes 30 September 2026
    expect(declarationDeadline(2025, 3)).toBe('2026-05-28'); // closes 28 February 2026
    expect(declarationDeadline(2027, 3)).toBe('2028-05-29'); // closes 29 February 2028
    expect(declarationDeadline(2025, 12)).toBe('2027-02-28'); // closes 30 November 2026
    expect(declarationDeadline(2025, 2)).toBe('2026-04-30'); // closes 31 January 2026
    expect(declarationDeadline(2025, 1)).toBe(declarationDeadline(2025)); // 31 December: the May rule
  });
});

describe('the fiscal year (the accounting settings’ first month)', () => {
  it('is named and labelled for the period picker: the calendar year, or "Exercice" with its first and last days', () => {
    expect(fiscalYearLabel(1, 2025)).toBe('2025');
    expect(fiscalYearLabel(7, 2025)).toBe('Exercice 2025-2026 (1er juillet 2025 – 30 juin 2026)');
    expect(fiscalYearLabel(3, 2027)).toBe('Exercice 2027-2028 (1er mars 2027 – 29 février 2028)');
    expect(fiscalYearLabel(12, 2025)).toBe('Exercice 2025-2026 (1er décembre 2025 – 30 novembre 2026)');
    expect(fiscalYearLabel(2, 2025)).toBe('Exercice 2025-2026 (1er février 2025 – 31 janvier 2026)');
    expect(dayInWords('2026-08-02')).toBe('2 août 2026');
    expect(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((m) => dayInWords(`2026-${m}-10`).split(' ')[1])).toEqual(['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre']);
  });

  it('starts at 00:00 in Paris: 23:00 UTC the day before in winter, 22:00 in summer', () => {
    expect(parisDayStart('2026-01-01')).toBe('2025-12-31T23:00:00.000Z');
    expect(parisDayStart('2025-07-01')).toBe('2025-06-30T22:00:00.000Z');
    expect(parisDayStart('2026-03-29')).toBe('2026-03-28T23:00:00.000Z'); // the day the clocks go forward, at 2 a.m.
    expect(parisDayStart('2026-10-25')).toBe('2026-10-24T22:00:00.000Z'); // the day they go back, at 3 a.m.
  });
});
