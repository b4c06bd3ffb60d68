/**
 * Reading an uploaded table (ADR 036): its encoding (UTF-8 with or without a BOM, UTF-16 as Excel's
 * "texte Unicode", else Windows-1252 as Excel writes a CSV in France), its separator (`;`, `,` or a
 * tab, from the header line) and then its rows, streamed through iconv-lite and csv-parse: a file
 * of 100 000 lines is never held as 100 000 objects. What cannot be read is said in one French
 * sentence (FileError).
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';

export type Encoding = 'utf8' | 'utf16le' | 'windows-1252';
export interface Reading {
  encoding: Encoding;
  delimiter: ';' | ',' | '\t';
}

/** A file that cannot be read as a table: the sentence says why. */
export class FileError extends Error {}

export const ENCODING_LABELS: Record<Encoding, string> = { utf8: 'UTF-8', utf16le: 'UTF-16 (texte Unicode)', 'windows-1252': 'Windows-1252 (Excel)' };
export const DELIMITER_LABELS: Record<Reading['delimiter'], string> = { ';': 'point-virgule', ',': 'virgule', '\t': 'tabulation' };

const HEAD = 64 * 1024;

function encodingOf(data: Buffer): Encoding {
  if (data[0] === 0xff && data[1] === 0xfe) return 'utf16le';
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return 'utf8';
  return isUtf8(data) ? 'utf8' : 'windows-1252';
}

/** Counts a separator outside quotes on the first line. */
function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) n++;
  }
  return n;
}

/** How to read the file, from its first bytes (a workbook arrives here already converted: xlsx.server.ts); a file that is no table is refused with a sentence. */
export function detectReading(data: Buffer): Reading {
  if (data.length === 0) throw new FileError('Le fichier est vide.');
  const encoding = encodingOf(data);
  const head = data.subarray(0, HEAD);
  if (encoding !== 'utf16le' && head.includes(0)) throw new FileError('Ce fichier n’est pas un tableau : envoyez un fichier CSV (valeurs séparées par des points-virgules, des virgules ou des tabulations).');
  const text = iconv.decode(head, encoding).replace(/^\uFEFF/, '');
  if (/Ã[©¨ª«®´§ ]|\uFFFD/.test(text)) {
    throw new FileError('Le fichier semble mal encodé (des « Ã© » à la place des « é ») : ouvrez-le dans son logiciel d’origine et exportez-le de nouveau en CSV UTF-8.');
  }
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const counts = ([';', ',', '\t'] as const).map((d) => [d, countOutsideQuotes(first, d)] as const);
  const [delimiter, n] = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  if (n === 0) throw new FileError('Ce fichier n’est pas un tableau : sa première ligne ne contient aucun séparateur de colonnes (point-virgule, virgule ou tabulation).');
  return { encoding, delimiter };
}

export interface Row {
  /** The line's number as a spreadsheet shows it: the header is 1, the first data line 2. */
  line: number;
  cells: string[];
}

/**
 * The file's rows, header first, streamed: decoded in chunks, parsed by csv-parse (quoted fields
 * with separators and newlines, doubled quotes, Excel's trailing separators and blank lines).
 * A broken quote ends the reading with a FileError naming its line.
 */
export async function* readRows(data: Buffer, reading: Reading): AsyncGenerator<Row> {
  const chunks = function* () {
    for (let i = 0; i < data.length; i += HEAD) yield data.subarray(i, i + HEAD);
  };
  const parser = Readable.from(chunks(), { objectMode: false })
    .pipe(iconv.decodeStream(reading.encoding, { stripBOM: true }))
    .pipe(parse({ delimiter: reading.delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }));
  let line = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      line++;
      if (cells.every((c) => c.trim() === '')) continue;
      yield { line, cells };
    }
  } catch (e) {
    const where = (e as { lines?: number }).lines;
    throw new FileError(`Le fichier ne peut pas être lu après la ligne ${line}${where ? ` (ligne de texte ${where})` : ''} : un guillemet n’est pas refermé ou une cellule est mal formée.`);
  }
}

/** The data rows: the file's rows after its header. */
export async function* dataRows(data: Buffer, reading: Reading): AsyncGenerator<Row> {
  let header = true;
  for await (const row of readRows(data, reading)) {
    if (header) header = false;
    else yield row;
  }
}

/** The header line alone (the columns to map). */
export async function readHeader(data: Buffer, reading: Reading): Promise<string[]> {
  for await (const row of readRows(data, reading)) return row.cells.map((c) => c.trim());
  throw new FileError('Le fichier est vide.');
}
