import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createImport, dryRun, fileOf, getImport, MAX_IMPORT_BYTES } from '~/domain/imports/imports.server';
import { FileError } from '~/domain/imports/read.server';
import { runImport, startImport } from '~/domain/imports/run.server';
import { cellText, MAX_XLSX_ROWS } from '~/domain/imports/xlsx.server';
import { runtime } from '~/lib/runtime.server';
import { describeEachDialect } from '../support/db';
import { HELLOASSO_HEADER } from '../support/import-files';
import { startTestRuntime } from '../support/runtime';

const ADA = { id: 'a1', name: 'Ada Admin' };

/** A workbook written by SheetJS's own writer: cells typed as Excel types them (dates with a date format, numbers, text). */
function workbook(sheets: Record<string, unknown[][]>): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) {
    // UTC: the dates given are the wall time the cells show.
    const ws = XLSX.utils.aoa_to_sheet(rows, { cellDates: true, dateNF: 'dd/mm/yyyy hh:mm', UTC: true });
    XLSX.utils.book_append_sheet(wb, ws, name);
  }
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const header = HELLOASSO_HEADER.split(';');
/** A HelloAsso payments line as cells: the amount a number, the date a date. */
const line = (ref: string, amount: number, at: Date, last: string, first: string, email: string) =>
  header.map((h) => ({ 'Référence commande': `C${ref}`, 'Référence paiement': ref, 'Montant total': amount, 'Date du paiement': at, 'Statut du paiement': 'Autorisé', 'Nom payeur': last, 'Prénom payeur': first, 'Email payeur': email, Campagne: 'Dons libres', 'Moyen de paiement': 'Carte bancaire' })[h] ?? '');

/**
 * An Excel workbook uploaded for an import (issue 43, ADR 036): its first sheet is converted once
 * to the CSV the imports read, so a HelloAsso export kept in XLSX lands as its CSV would, dates to
 * the minute and amounts to the cent; a corrupt or empty workbook is refused with a sentence.
 */
describeEachDialect('imports of an XLSX workbook, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  const storage = () => runtime().storage;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, 'imports-xlsx-'.padEnd(48, 'x'));
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  const book = () =>
    workbook({
      Paiements: [
        header,
        line('X3001', 85.5, new Date(Date.UTC(2025, 2, 30, 14, 35)), 'Lefèvre', 'Éloïse', 'eloise@example.org'),
        line('X3002', 1200, new Date(Date.UTC(2025, 0, 5, 9, 7)), 'Noël', 'Gaël', 'gael@example.org'),
      ],
      // A second sheet: never read.
      Notes: [['Référence paiement', 'Montant total'], ['X9999', 5]],
    });

  it('a HelloAsso sheet in XLSX: recognised, dry run, imported with its dates to the minute and its amounts; the second sheet ignored; the same file twice adds nothing', async () => {
    const i = await createImport(db(), storage(), ADA, 'paiements.xlsx', book());
    expect(i.file_name).toBe('paiements.xlsx');
    expect(i.source).toBe('helloasso');
    const stored = (await fileOf(storage(), i)).toString('utf8');
    expect(stored.startsWith('\uFEFF"Référence commande";"Référence paiement";"Montant total";')).toBe(true);
    expect(stored).toContain('"X3001";"85.5";"30/03/2025 14:35";"Autorisé"');

    const report = (await dryRun(db(), storage(), i.id))!;
    expect(report).toMatchObject({ fatal: null, lines: 2, gifts: 2, succeeded: 2, totalCents: 8550 + 120000, rejectedCount: 0 });
    expect(await startImport(db(), ADA, i.id)).toBe(true);
    expect(await runImport(db(), storage(), i.id)).toBe(2);
    const rows = await db().selectFrom('donations').select(['source_ref', 'amount_minor', 'succeeded_at', 'donor_name']).where('import_id', '=', i.id).orderBy('source_ref').execute();
    // The wall time the cell shows, read as the CSV's `dd/mm/yyyy hh:mm` is (parseDate).
    expect(rows).toEqual([
      { source_ref: 'X3001', amount_minor: 8550, succeeded_at: '2025-03-30T12:35:00.000Z', donor_name: 'Éloïse Lefèvre' },
      { source_ref: 'X3002', amount_minor: 120000, succeeded_at: '2025-01-05T08:07:00.000Z', donor_name: 'Gaël Noël' },
    ]);
    expect(await db().selectFrom('donations').select('id').where('source_ref', '=', 'X9999').execute()).toEqual([]);

    const again = await createImport(db(), storage(), ADA, 'paiements.xlsx', book());
    expect((await dryRun(db(), storage(), again.id))!).toMatchObject({ gifts: 2, alreadyImported: 2 });
    expect(await startImport(db(), ADA, again.id)).toBe(true);
    await runImport(db(), storage(), again.id);
    expect((await getImport(db(), again.id))!.imported_count).toBe(0);
  });

  it('a corrupt workbook, an empty first sheet, too many rows or too many bytes are refused with their sentence, and nothing is stored', async () => {
    const refused = async (data: Buffer) => {
      try {
        await createImport(db(), storage(), ADA, 'x.xlsx', data);
        return 'accepted';
      } catch (e) {
        expect(e).toBeInstanceOf(FileError);
        return (e as Error).message;
      }
    };
    const before = (await db().selectFrom('imports').select('id').execute()).length;
    const good = book();
    expect(await refused(good.subarray(0, Math.floor(good.length / 2)))).toMatch(/^Ce classeur Excel est illisible/);
    expect(await refused(Buffer.from('PK\x03\x04 pas un zip', 'latin1'))).toMatch(/^Ce classeur Excel est illisible/);
    expect(await refused(workbook({ Vide: [], Paiements: [header] }))).toMatch(/^La première feuille de ce classeur est vide/);
    expect(await refused(workbook({ Vide: [['', ''], ['', '']] }))).toMatch(/^La première feuille de ce classeur est vide/);
    // A sheet whose last line is past the bound (one cell there): refused before its rows are read.
    const far = workbook({ Paiements: [header] });
    const long = XLSX.read(far, { type: 'buffer' });
    long.Sheets.Paiements[`A${MAX_XLSX_ROWS + 2}`] = { t: 's', v: 'trop loin' };
    long.Sheets.Paiements['!ref'] = `A1:Q${MAX_XLSX_ROWS + 2}`;
    expect(await refused(XLSX.write(long, { type: 'buffer', bookType: 'xlsx' }) as Buffer)).toBe('La première feuille de ce classeur dépasse 200\u202f000 lignes : découpez-la en plusieurs fichiers (par année, par exemple).');
    const huge = Buffer.concat([far, Buffer.alloc(MAX_IMPORT_BYTES)]);
    expect(await refused(huge)).toBe('Le classeur dépasse 50 Mo : découpez-le en plusieurs fichiers (par année, par exemple).');
    expect((await db().selectFrom('imports').select('id').execute()).length).toBe(before);
  });
});

it('a cell as the importers read it: plain decimals (never an exponent), the wall time of a date, formulas by their value', () => {
  expect([85.5, 85, 0.1 + 0.2, 1e21, 12345678.9, -3.25].map(cellText)).toEqual(['85.5', '85', '0.3', '1000000000000000000000', '12345678.9', '-3.25']);
  expect(cellText(new Date(Date.UTC(2024, 11, 31, 23, 59, 30)))).toBe('31/12/2024 23:59:30');
  expect(cellText(new Date(Date.UTC(2024, 1, 29)))).toBe('29/02/2024');
  expect(cellText('Hélène')).toBe('Hélène');
  const ws = XLSX.utils.aoa_to_sheet([['Montant'], [10]]);
  ws.A3 = { t: 'n', f: 'A2*2', v: 20 };
  ws['!ref'] = 'A1:A3';
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'S');
  const read = XLSX.read(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }), { type: 'buffer' });
  expect(XLSX.utils.sheet_to_json(read.Sheets.S, { header: 1, raw: true }).map((r) => cellText((r as unknown[])[0]))).toEqual(['Montant', '10', '20']);
});
