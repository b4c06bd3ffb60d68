/**
 * A one-table document on A4 pages (the assembly's attendance sheet, the deposit slip of cheques):
 * heading lines centred, a framed table whose header row is drawn again on each page, then closing
 * lines. Helvetica (WinAnsi): callers give text without narrow spaces. Infrastructure: pdfkit only.
 */
import { loadPdfKit } from './pdfkit.server';

export interface TableColumn {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

export interface TableDocument {
  /** The first line is the title (bold), the others follow it centred. */
  heading: readonly string[];
  /** The PDF's title (its properties, shown by readers); the first heading line when absent. */
  title?: string;
  columns: readonly TableColumn[];
  rows: readonly (readonly string[])[];
  /** Lines after the table (bold: a count, a total). */
  closing?: readonly string[];
  /** The PDF's creation date: the same data and date give the same bytes. */
  createdAt: Date;
}

const MARGIN = 50;
const ROW = 28;

export async function renderTablePdf(d: TableDocument): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, compress: true, lang: 'fr-FR', displayTitle: true, info: { Title: d.title ?? d.heading[0], Producer: 'Fondation THV', Creator: 'Fondation THV', CreationDate: d.createdAt, ModDate: d.createdAt } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(14).text(d.heading[0], { align: 'center' });
  doc.font('Helvetica').fontSize(11);
  for (const l of d.heading.slice(1)) doc.text(l, { align: 'center' });
  doc.moveDown(1);
  const lefts = d.columns.reduce<number[]>((xs, c, i) => [...xs, i === 0 ? MARGIN : xs[i - 1] + d.columns[i - 1].width], []);
  const bottom = doc.page.height - MARGIN;
  const drawRow = (y: number, cells: readonly string[]) => {
    d.columns.forEach((c, i) => {
      doc.text(cells[i] ?? '', lefts[i] + 4, y + 9, { width: c.width - 8, height: ROW - 10, ellipsis: true, lineBreak: false, align: c.align ?? 'left' });
      doc.rect(lefts[i], y, c.width, ROW).stroke();
    });
    return y + ROW;
  };
  const headerRow = (y: number) => {
    doc.font('Helvetica-Bold').fontSize(10);
    const next = drawRow(y, d.columns.map((c) => c.title));
    doc.font('Helvetica').fontSize(10);
    return next;
  };
  let y = headerRow(doc.y);
  for (const row of d.rows) {
    if (y + ROW > bottom) {
      doc.addPage();
      y = headerRow(MARGIN);
    }
    y = drawRow(y, row);
  }
  if (d.closing?.length) {
    if (y + ROW * d.closing.length > bottom) {
      doc.addPage();
      y = MARGIN;
    }
    doc.font('Helvetica-Bold').fontSize(11);
    d.closing.forEach((l, i) => doc.text(l, MARGIN, y + 12 + i * 16, { lineBreak: false }));
  }
  doc.end();
  return done;
}
