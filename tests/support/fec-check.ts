/**
 * A FEC checker written from the published specification, not from our writer: article A47 A-1 of
 * the Livre des procédures fiscales (I: flat file, records separated by CR and/or LF, one unique
 * field separator; III: ASCII / ISO 8859-15 characters; the 18 fields of an ordinary accounting in
 * their order) and BOI-CF-IOR-60-40-20 (header line naming the fields, dates AAAAMMJJ, amounts
 * with a decimal comma and no thousands separator, Debit and Credit (or Montant and Sens), every
 * EcritureNum balanced, entries in chronological order of validation, file name
 * SirenFECAAAAMMJJ with AAAAMMJJ the closing date of the fiscal year).
 * Returns every problem found, so a test can show them all; an empty list is a valid file.
 */
export const SPEC_FIELDS = [
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
];

/** ISO 8859-15 bytes to text (its 8 differences with Latin-1). */
const LATIN9: Record<number, string> = { 0xa4: '€', 0xa6: 'Š', 0xa8: 'š', 0xb4: 'Ž', 0xb8: 'ž', 0xbc: 'Œ', 0xbd: 'œ', 0xbe: 'Ÿ' };
export function decodeLatin9(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => LATIN9[b] ?? String.fromCharCode(b)).join('');
}

function isDate(v: string): boolean {
  if (!/^\d{8}$/.test(v)) return false;
  const d = new Date(Date.UTC(Number(v.slice(0, 4)), Number(v.slice(4, 6)) - 1, Number(v.slice(6, 8))));
  return d.toISOString().slice(0, 10).replace(/-/g, '') === v;
}

/** An amount as the format writes it: digits, an optional decimal comma and at most two decimals; no sign, no space, no point. */
const AMOUNT = /^\d+(,\d{1,2})?$/;
const cents = (v: string) => Math.round(Number(v.replace(',', '.')) * 100);

export interface FecCheckOptions {
  fileName: string;
  siren: string;
  /** The fiscal year's first and closing days, AAAAMMJJ. */
  opening: string;
  closing: string;
}

export function checkFec(bytes: Uint8Array, o: FecCheckOptions): string[] {
  const problems: string[] = [];
  const m = /^(\d{9})FEC(\d{8})\.txt$/.exec(o.fileName);
  if (!m) problems.push(`file name ${o.fileName} is not SirenFECAAAAMMJJ.txt`);
  else {
    if (m[1] !== o.siren) problems.push(`file name's SIREN ${m[1]} is not ${o.siren}`);
    if (m[2] !== o.closing) problems.push(`file name's date ${m[2]} is not the closing date ${o.closing}`);
  }
  bytes.forEach((b, i) => {
    if (b < 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) problems.push(`control byte ${b} at ${i}`);
    if (b >= 0x80 && b < 0xa0) problems.push(`byte ${b} at ${i} is no ISO 8859-15 character`);
  });
  const records = decodeLatin9(bytes).split(/\r\n|\r|\n/);
  if (records[records.length - 1] === '') records.pop();
  const header = records.shift() ?? '';
  const sep = header.includes('|') ? '|' : '\t';
  if (header.includes('|') && header.includes('\t')) problems.push('two field separators in the header');
  const names = header.split(sep);
  if (names.join(',') !== SPEC_FIELDS.join(',')) problems.push(`header ${names.join(',')} is not the 18 fields in order`);
  const byEntry = new Map<string, { debit: number; credit: number; journal: string; date: string }>();
  let fileDebit = 0;
  let fileCredit = 0;
  let lastValid = '';
  records.forEach((record, i) => {
    const at = `line ${i + 2}`;
    const f = record.split(sep);
    if (f.length !== SPEC_FIELDS.length) {
      problems.push(`${at}: ${f.length} fields`);
      return;
    }
    const v = Object.fromEntries(SPEC_FIELDS.map((n, k) => [n, f[k]]));
    for (const n of ['JournalCode', 'JournalLib', 'EcritureNum', 'CompteNum', 'CompteLib', 'PieceRef', 'EcritureLib']) if (v[n].trim() === '') problems.push(`${at}: ${n} empty`);
    for (const n of ['EcritureDate', 'PieceDate', 'ValidDate']) if (!isDate(v[n])) problems.push(`${at}: ${n} ${v[n]} is not AAAAMMJJ`);
    if (v.DateLet !== '' && !isDate(v.DateLet)) problems.push(`${at}: DateLet ${v.DateLet}`);
    if ((v.CompAuxNum === '') !== (v.CompAuxLib === '')) problems.push(`${at}: CompAuxNum and CompAuxLib go together`);
    if (v.EcritureDate < o.opening || v.EcritureDate > o.closing) problems.push(`${at}: EcritureDate ${v.EcritureDate} outside the fiscal year`);
    for (const n of ['Debit', 'Credit']) if (!AMOUNT.test(v[n])) problems.push(`${at}: ${n} ${v[n]} is not a non-negative amount with a decimal comma`);
    if (v.Montantdevise !== '' && !/^-?\d+(,\d+)?$/.test(v.Montantdevise)) problems.push(`${at}: Montantdevise ${v.Montantdevise}`);
    if ((v.Montantdevise === '') !== (v.Idevise === '')) problems.push(`${at}: Montantdevise and Idevise go together`);
    if (v.Idevise !== '' && !/^[A-Z]{3}$/.test(v.Idevise)) problems.push(`${at}: Idevise ${v.Idevise}`);
    const debit = cents(v.Debit);
    const credit = cents(v.Credit);
    if (debit > 0 && credit > 0) problems.push(`${at}: both a debit and a credit`);
    if (v.ValidDate < lastValid) problems.push(`${at}: not in chronological order of validation`);
    lastValid = v.ValidDate > lastValid ? v.ValidDate : lastValid;
    const e = byEntry.get(v.EcritureNum) ?? { debit: 0, credit: 0, journal: v.JournalCode, date: v.EcritureDate };
    if (e.journal !== v.JournalCode || e.date !== v.EcritureDate) problems.push(`${at}: entry ${v.EcritureNum} spans journals or dates`);
    e.debit += debit;
    e.credit += credit;
    byEntry.set(v.EcritureNum, e);
    fileDebit += debit;
    fileCredit += credit;
  });
  for (const [num, e] of byEntry) if (e.debit !== e.credit) problems.push(`entry ${num} not balanced: ${e.debit} ≠ ${e.credit}`);
  if (fileDebit !== fileCredit) problems.push(`file not balanced: ${fileDebit} ≠ ${fileCredit}`);
  return problems;
}
