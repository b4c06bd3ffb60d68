/**
 * An Excel workbook (XLSX) uploaded for an import (issue 43, ADR 036): its FIRST sheet is converted
 * once, at upload, to the CSV the reader (read.server.ts) takes — UTF-8 with a BOM, `;`, every cell
 * quoted —, and that CSV is what is stored, so the dry run, batches, resume, undo and idempotence
 * are those of a CSV. Read by SheetJS (@e965/xlsx, no dependency): a date cell becomes
 * `dd/mm/yyyy hh:mm` (`dd/mm/yyyy` at midnight) in the wall time Excel shows, as HelloAsso writes
 * it; a number its plain decimal text (`85.5`, never `8.55e+1`), rounded to Excel's 15 digits; a
 * formula its cached value. What cannot be read is said in one French sentence (FileError).
 */
import * as XLSX from '@e965/xlsx';
import { MAX_IMPORT_BYTES } from './fields';
import { FileError } from './read.server';

/** The most data lines a sheet may hold (a 100 000-line HelloAsso export is the largest seen). */
export const MAX_XLSX_ROWS = 200_000;
const MAX_XLSX_COLUMNS = 1_000;

/** A zip (XLSX, ODS, DOCX…): the conversion tells whether it is a workbook it can read. */
export const isZip = (data: Buffer) => data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

const UNREADABLE = 'Ce classeur Excel est illisible : ouvrez-le dans Excel, vérifiez qu’il s’ouvre, enregistrez-le de nouveau au format XLSX (ou CSV) puis envoyez-le.';
const EMPTY = 'La première feuille de ce classeur est vide : placez le tableau (une ligne d’en-têtes puis une ligne par don) dans la première feuille.';

const pad = (n: number) => String(n).padStart(2, '0');
const plain = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 15, useGrouping: false });

/** A cell as the CSV reader and the importers' parsers (parseDate, parseAmount) read it. */
export function cellText(v: unknown): string {
  if (v instanceof Date) {
    // sheet_to_json's UTC option: the UTC fields are the wall time the cell shows, whatever the server's zone.
    const at = new Date(Math.round(v.getTime() / 1000) * 1000);
    if (Number.isNaN(at.getTime())) return '';
    const day = `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`;
    const [h, mi, s] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()];
    if (h === 0 && mi === 0 && s === 0) return day;
    return `${day} ${pad(h)}:${pad(mi)}${s ? `:${pad(s)}` : ''}`;
  }
  if (typeof v === 'number') return Number.isFinite(v) ? plain.format(v) : '';
  if (v === null || v === undefined) return '';
  return String(v);
}

const quoted = (c: string) => `"${c.replace(/"/g, '""')}"`;

/** The first sheet as the project's CSV (UTF-8 with a BOM, `;`); a workbook that cannot be taken is refused (FileError), nothing kept. */
export function xlsxToCsv(data: Buffer): Buffer {
  if (data.length > MAX_IMPORT_BYTES) throw new FileError(`Le classeur dépasse ${MAX_IMPORT_BYTES / 1024 / 1024} Mo : découpez-le en plusieurs fichiers (par année, par exemple).`);
  let wb: XLSX.WorkBook;
  try {
    // Dense sheets and no formatted text (`w`): 100 000 lines read in ≈ 7 s instead of ≈ 25 s (ADR 036).
    wb = XLSX.read(data, { type: 'buffer', cellDates: true, cellText: false, cellHTML: false, cellStyles: false, dense: true, sheetRows: MAX_XLSX_ROWS + 2 });
  } catch {
    throw new FileError(UNREADABLE);
  }
  const name = wb.SheetNames[0];
  const ws = name === undefined ? undefined : wb.Sheets[name];
  if (!ws) throw new FileError(UNREADABLE);
  const full = ws['!fullref'] ?? ws['!ref'];
  if (!full) throw new FileError(EMPTY);
  const range = XLSX.utils.decode_range(full);
  if (range.e.r - range.s.r > MAX_XLSX_ROWS) throw new FileError(`La première feuille de ce classeur dépasse ${MAX_XLSX_ROWS.toLocaleString('fr-FR')} lignes : découpez-la en plusieurs fichiers (par année, par exemple).`);
  if (range.e.c - range.s.c >= MAX_XLSX_COLUMNS) throw new FileError(`La première feuille de ce classeur dépasse ${MAX_XLSX_COLUMNS} colonnes : ne gardez que les colonnes du tableau à importer.`);
  const rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: '', blankrows: false, UTC: true });
  const lines: string[] = [];
  for (const row of rows) {
    const cells = row.map(cellText);
    if (cells.some((c) => c.trim() !== '')) lines.push(cells.map(quoted).join(';'));
  }
  if (lines.length === 0) throw new FileError(EMPTY);
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')]);
}
