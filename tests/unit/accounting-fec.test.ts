import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTING_SETTINGS as CHART } from '~/domain/accounting/chart';
import { buildEntries, type GiftFact, type NumberedEntry } from '~/domain/accounting/entries';
import { FEC_COLUMNS, fecAmount, fecDate, fecField, fecFileName, fecLines, fecText, JOURNAL_CSV_HEADER, journalCsvRows, latin9 } from '~/domain/accounting/fec';
import { checkFec, decodeLatin9, SPEC_FIELDS } from '../support/fec-check';

/**
 * The FEC writer (ADR 034) against article A47 A-1 LPF and BOI-CF-IOR-60-40-20, and the checker
 * written from them (tests/support/fec-check.ts) shown to refuse what the format refuses.
 */
const J = CHART.journals;
const A = CHART.accounts;
const entry = (fields: Partial<NumberedEntry> = {}): NumberedEntry => ({
  num: 1,
  journal: 'gifts',
  date: '2026-03-10',
  piece: 'pi_1',
  label: 'Don, Carte (Stripe)',
  lines: [
    { account: CHART.providers.stripe, debit: 123456, credit: 0 },
    { account: A.gifts, debit: 0, credit: 123456 },
  ],
  ...fields,
});
const OPTIONS = { fileName: '732829320FEC20261231.txt', siren: '732829320', opening: '20260101', closing: '20261231' };

describe('the FEC writer', () => {
  it('the header: the 18 fields in the order of article A47 A-1, separated by |', () => {
    expect(fecLines([], J)).toEqual(['JournalCode|JournalLib|EcritureNum|EcritureDate|CompteNum|CompteLib|CompAuxNum|CompAuxLib|PieceRef|PieceDate|EcritureLib|Debit|Credit|EcritureLet|DateLet|ValidDate|Montantdevise|Idevise']);
    expect([...FEC_COLUMNS]).toEqual(SPEC_FIELDS);
  });

  it('a line per entry line: dates AAAAMMJJ, amounts with a comma and no thousands separator, the other side 0,00', () => {
    expect(fecLines([entry()], J).slice(1)).toEqual([
      'DON|Dons et cotisations|1|20260310|5171|Solde Stripe|||pi_1|20260310|Don, Carte (Stripe)|1234,56|0,00|||20260310||',
      'DON|Dons et cotisations|1|20260310|7541|Dons manuels|||pi_1|20260310|Don, Carte (Stripe)|0,00|1234,56|||20260310||',
    ]);
  });

  it('a foreign currency’s amount and code; the bank journal', () => {
    const lines = fecLines([entry({ num: 7, journal: 'bank', lines: [{ account: A.bank, debit: 10000, credit: 0, foreign: { minor: 65596, currency: 'XOF' } }, { account: A.gifts, debit: 0, credit: 10000, foreign: { minor: 1050, currency: 'KES' } }] })], J);
    expect(lines[1]).toBe('BQ|Banque et prestataires|7|20260310|512|Banque|||pi_1|20260310|Don, Carte (Stripe)|100,00|0,00|||20260310|65596|XOF');
    expect(lines[2].endsWith('|10,50|KES')).toBe(true);
  });

  it('no separator, tab or line break inside a field', () => {
    expect(fecField(' a|b\tc\r\nd  e ')).toBe('a b c d e');
    expect(fecField('x||y')).toBe('x y');
    const line = fecLines([entry({ piece: 'p|1', label: 'Don\n|x' })], J)[1];
    expect(line.split('|')).toHaveLength(18);
    expect(line).toContain('|p 1|');
    expect(line).toContain('|Don x|');
  });

  it('amounts and dates', () => {
    expect(fecAmount(0)).toBe('0,00');
    expect(fecAmount(5)).toBe('0,05');
    expect(fecAmount(175)).toBe('1,75');
    expect(fecAmount(123456789)).toBe('1234567,89');
    expect(fecDate('2026-01-02')).toBe('20260102');
  });

  it('the file name: SIREN, FEC, the closing day', () => {
    expect(fecFileName('732829320', '2027-06-30')).toBe('732829320FEC20270630.txt');
  });

  it('every line ends with CR LF, the header’s too', () => {
    expect(fecText([entry()], J)).toBe(`${fecLines([entry()], J).join('\r\n')}\r\n`);
  });

  it('ISO 8859-15: accents as one byte, €, œ and Œ in their places, typographic marks plain, the rest "?"', () => {
    expect([...latin9('é€œŒŠšŽžŸ')]).toEqual([0xe9, 0xa4, 0xbd, 0xbc, 0xa6, 0xa8, 0xb4, 0xb8, 0xbe]);
    expect(decodeLatin9(latin9('L’œuvre « été » – 5 €…'))).toBe("L'œuvre « été » - 5 €...");
    expect(decodeLatin9(latin9('‘a’ “b” — c\u00a0d\u202fe'))).toBe('\'a\' "b" - c d e');
    expect([...latin9('Ā中¤¦¨´¸¼½¾ÿ')]).toEqual([0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0xff]);
    expect(latin9('A|z~')).toEqual(new Uint8Array([0x41, 0x7c, 0x7a, 0x7e]));
  });

  it('the CSV journal: one row per line, euros with a decimal point, the currency beside', () => {
    expect([...JOURNAL_CSV_HEADER]).toEqual(['N° écriture', 'Journal', 'Date', 'Compte', 'Libellé du compte', 'Pièce', 'Libellé', 'Débit', 'Crédit', 'Montant en devise', 'Devise']);
    expect(journalCsvRows([entry({ num: 3, lines: [{ account: A.bank, debit: 175, credit: 0, foreign: { minor: 1148, currency: 'XOF' } }, { account: A.fees, debit: 0, credit: 175 }] })], J)).toEqual([
      ['3', 'DON', '2026-03-10', '512', 'Banque', 'pi_1', 'Don, Carte (Stripe)', '1.75', '0.00', '1148', 'XOF'],
      ['3', 'DON', '2026-03-10', '627', 'Services bancaires et assimilés', 'pi_1', 'Don, Carte (Stripe)', '0.00', '1.75', '', ''],
    ]);
  });
});

describe('the FEC checker, from the specification', () => {
  const gift = (id: string, at: string, fields: Partial<GiftFact> = {}): GiftFact => ({ id, means: 'stripe', method: null, purpose: 'gift', ref: `pi_${id}`, amountMinor: 10000, currency: 'EUR', eurCents: 10000, succeededAt: at, reversal: null, deposit: null, ...fields });
  const year = buildEntries(
    CHART,
    {
      gifts: [gift('a', '2026-01-05T10:00:00Z'), gift('b', '2026-02-05T10:00:00Z', { reversal: { kind: 'dispute', at: '2026-04-01T10:00:00Z' } }), gift('c', '2026-03-05T10:00:00Z', { means: 'flutterwave', currency: 'XOF', amountMinor: 65596 })],
      moves: [{ provider: 'stripe', ref: 'txn_a', donationId: 'a', kind: 'payment', grossMinor: 10000, feeMinor: 175, currency: 'EUR', occurredAt: '2026-01-05T10:00:00Z' }],
      payouts: [{ provider: 'stripe', ref: 'po_1', amountMinor: 9825, currency: 'EUR', status: 'paid', createdAt: '2026-01-08T10:00:00Z', arrivalAt: '2026-01-10T10:00:00Z' }],
    },
    '2026-01-01',
    '2026-12-31',
  );
  const file = latin9(fecText(year.entries, J));

  it('passes a year of gifts, a fee, a payout, a lost dispute and a gift in CFA francs', () => {
    expect(year.entries).toHaveLength(7);
    expect(checkFec(file, OPTIONS)).toEqual([]);
  });

  it('refuses a wrong name, header, separator, dates, amounts, an unbalanced entry or file, disorder', () => {
    const text = decodeLatin9(file);
    const bad = (t: string, o = OPTIONS) => checkFec(latin9(t), o);
    expect(checkFec(file, { ...OPTIONS, fileName: '732829320FEC20261231.csv' })).toEqual(['file name 732829320FEC20261231.csv is not SirenFECAAAAMMJJ.txt']);
    expect(checkFec(file, { ...OPTIONS, fileName: '552100554FEC20261130.txt' })).toEqual(['file name\'s SIREN 552100554 is not 732829320', 'file name\'s date 20261130 is not the closing date 20261231']);
    expect(bad(text.replace('JournalLib|', 'JournalLibelle|'))[0]).toMatch(/header/);
    expect(bad(text.replace('|20260105|', '|2026-01-05|'))[0]).toMatch(/EcritureDate 2026-01-05 is not AAAAMMJJ/);
    expect(bad(text.replace('|20260105|', '|20260231|'))).toContain('line 2: EcritureDate 20260231 is not AAAAMMJJ');
    expect(bad(text.replace('|100,00|0,00|', '|100.00|0,00|'))).toContain('line 2: Debit 100.00 is not a non-negative amount with a decimal comma');
    expect(bad(text.replace('|100,00|0,00|', '|-100,00|0,00|')).join()).toMatch(/Debit -100,00/);
    expect(bad(text.replace('|100,00|0,00|', '|1 000,00|0,00|')).join()).toMatch(/Debit 1 000,00/);
    expect(bad(text.replace('|100,00|0,00|', '|100,01|0,00|'))).toEqual(['entry 1 not balanced: 10001 ≠ 10000', 'file not balanced: 59826 ≠ 59825']);
    expect(bad(text.replace('|100,00|0,00|', '|100,00|1,00|')).join()).toMatch(/both a debit and a credit/);
    expect(bad(text.replace('|20260105|', '|20250105|')).join()).toMatch(/outside the fiscal year/);
    const lines = text.split('\r\n').filter(Boolean);
    expect(bad([lines[0], lines[lines.length - 1], ...lines.slice(1, -1)].join('\r\n')).join()).toMatch(/line 3: not in chronological order/);
    expect(bad(text.replace('|Dons et cotisations|', '||')).join()).toMatch(/JournalLib empty/);
    expect(bad(text.replace('|65596|XOF', '|65596|')).join()).toMatch(/Montantdevise and Idevise go together/);
    expect(bad(text.replace('|pi_a|', '|pi|a|')).join()).toMatch(/19 fields/);
    expect(checkFec(new Uint8Array([...file, 0x01]), OPTIONS).join()).toMatch(/control byte 1/);
  });
});
