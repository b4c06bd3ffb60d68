import { toDecimalString } from '~/lib/currency';
import type { Journal, JournalKey } from './chart';
import type { NumberedEntry } from './entries';

/**
 * The FEC (fichier des écritures comptables, article A47 A-1 du LPF, BOI-CF-IOR-60-40-20) of a
 * fiscal year (ADR 034): a flat file, one line per entry line after a header naming the 18 fields
 * in their order, fields separated by `|` (never found inside one: replaced), lines by CR LF,
 * dates AAAAMMJJ, amounts with a decimal comma and no thousands separator, Debit and Credit both
 * written (0,00 on the other side), characters in ISO 8859-15. Named SIRENFECAAAAMMJJ.txt after
 * the fiscal year's closing day. Also the same journal as a plain CSV for a spreadsheet.
 */
export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

export const FEC_SEPARATOR = '|';

/** A field as the file may hold it: no separator, tab or line break inside, spaces collapsed. */
export function fecField(v: string): string {
  return v.replace(/[|\t\r\n]+/g, ' ').replace(/ {2,}/g, ' ').trim();
}

/** AAAA-MM-JJ → AAAAMMJJ. */
export const fecDate = (day: string): string => day.replace(/-/g, '');

/** Euro cents with a decimal comma and no thousands separator: 123456 → "1234,56". */
export function fecAmount(cents: number): string {
  return toDecimalString(cents, 'EUR').replace('.', ',');
}

/** The file's lines (header first) for numbered entries. */
export function fecLines(entries: readonly NumberedEntry[], journals: Record<JournalKey, Journal>): string[] {
  const rows = entries.flatMap((e) =>
    e.lines.map((l) =>
      [
        journals[e.journal].code,
        journals[e.journal].label,
        String(e.num),
        fecDate(e.date),
        l.account.num,
        l.account.label,
        '',
        '',
        e.piece,
        fecDate(e.date),
        e.label,
        fecAmount(l.debit),
        fecAmount(l.credit),
        '',
        '',
        fecDate(e.date),
        l.foreign ? toDecimalString(l.foreign.minor, l.foreign.currency).replace('.', ',') : '',
        l.foreign ? l.foreign.currency : '',
      ]
        .map(fecField)
        .join(FEC_SEPARATOR),
    ),
  );
  return [FEC_COLUMNS.join(FEC_SEPARATOR), ...rows];
}

/** The whole file's text: every line ended by CR LF. */
export function fecText(entries: readonly NumberedEntry[], journals: Record<JournalKey, Journal>): string {
  return fecLines(entries, journals).map((l) => `${l}\r\n`).join('');
}

/** ISO 8859-15's eight characters that differ from Latin-1, by code point. */
const LATIN9: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0xa4],
  [0x160, 0xa6],
  [0x161, 0xa8],
  [0x17d, 0xb4],
  [0x17e, 0xb8],
  [0x152, 0xbc],
  [0x153, 0xbd],
  [0x178, 0xbe],
]);
const LATIN1_ONLY = new Set([0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe]);
/** Typographic marks the set lacks, written as their plain forms. */
const PLAIN: Record<string, string> = { '\u2019': "'", '\u2018': "'", '\u201c': '"', '\u201d': '"', '\u2013': '-', '\u2014': '-', '\u00a0': ' ', '\u202f': ' ', '\u2026': '...' };

/** Text as ISO 8859-15 bytes: what the set lacks becomes its plain form, or "?". */
export function latin9(text: string): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  for (const ch of text.replace(/[\u2018\u2019\u201c\u201d\u2013\u2014\u00a0\u202f\u2026]/g, (c) => PLAIN[c])) {
    const code = ch.codePointAt(0)!;
    const mapped = LATIN9.get(code) ?? (code < 0x100 && !LATIN1_ONLY.has(code) ? code : 0x3f);
    out.push(mapped);
  }
  return new Uint8Array(out);
}

/** SIRENFECAAAAMMJJ.txt: the SIREN and the fiscal year's closing day. */
export function fecFileName(siren: string, closingDay: string): string {
  return `${siren}FEC${fecDate(closingDay)}.txt`;
}

/** The CSV journal's header and rows (amounts in euros with a decimal point, as the reports' CSV). */
export const JOURNAL_CSV_HEADER = ['N° écriture', 'Journal', 'Date', 'Compte', 'Libellé du compte', 'Pièce', 'Libellé', 'Débit', 'Crédit', 'Montant en devise', 'Devise'] as const;

export function journalCsvRows(entries: readonly NumberedEntry[], journals: Record<JournalKey, Journal>): string[][] {
  return entries.flatMap((e) =>
    e.lines.map((l) => [
      String(e.num),
      journals[e.journal].code,
      e.date,
      l.account.num,
      l.account.label,
      e.piece,
      e.label,
      toDecimalString(l.debit, 'EUR'),
      toDecimalString(l.credit, 'EUR'),
      l.foreign ? toDecimalString(l.foreign.minor, l.foreign.currency) : '',
      l.foreign?.currency ?? '',
    ]),
  );
}
