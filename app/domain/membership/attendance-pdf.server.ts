/**
 * The general assembly's attendance sheet (ADR 021): one line per member up to date on the day,
 * with a column to sign. Small and self-contained on purpose: the receipts' PDF layout is being
 * made a shared module, and this sheet should take its style then.
 */
import { loadPdfKit } from '~/lib/pdfkit.server';

export interface AttendanceLine {
  number: number;
  name: string;
  type: string;
}

const MARGIN = 50;
const ROW = 28;
/** Column left edges and widths on an A4 page (595 pt wide): N°, name, type, signature. */
const COLUMNS = [
  { title: 'N°', x: MARGIN, width: 40 },
  { title: 'Nom', x: MARGIN + 40, width: 190 },
  { title: 'Type', x: MARGIN + 230, width: 120 },
  { title: 'Signature', x: MARGIN + 350, width: 145 },
];

/** The sheet's heading lines (tests read them back). */
export function attendanceHeading(title: string, dayFr: string, count: number): string[] {
  return [title, `Assemblée générale du ${dayFr}`, `Membres à jour de leur cotisation à cette date : ${count}`];
}

export async function renderAttendancePdf(heading: string[], lines: readonly AttendanceLine[], createdAt: Date): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, compress: true, info: { Title: heading[1], Producer: 'Fondation THV', Creator: 'Fondation THV', CreationDate: createdAt, ModDate: createdAt } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(14).text(heading[0], { align: 'center' });
  doc.font('Helvetica').fontSize(11);
  for (const l of heading.slice(1)) doc.text(l, { align: 'center' });
  doc.moveDown(1);
  const bottom = doc.page.height - MARGIN;
  const headerRow = (y: number) => {
    doc.font('Helvetica-Bold').fontSize(10);
    for (const c of COLUMNS) doc.text(c.title, c.x + 4, y + 9, { width: c.width - 8, lineBreak: false });
    drawRow(y);
    return y + ROW;
  };
  const drawRow = (y: number) => {
    for (const c of COLUMNS) doc.rect(c.x, y, c.width, ROW).stroke();
  };
  let y = headerRow(doc.y);
  doc.font('Helvetica').fontSize(10);
  for (const line of lines) {
    if (y + ROW > bottom) {
      doc.addPage();
      y = headerRow(MARGIN);
      doc.font('Helvetica').fontSize(10);
    }
    const cells = [String(line.number), line.name, line.type, ''];
    COLUMNS.forEach((c, i) => doc.text(cells[i], c.x + 4, y + 9, { width: c.width - 8, height: ROW - 10, ellipsis: true, lineBreak: false }));
    drawRow(y);
    y += ROW;
  }
  doc.end();
  return done;
}
