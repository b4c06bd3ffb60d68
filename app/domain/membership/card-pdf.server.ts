/**
 * The member card drawn at ID-1 size (ISO/IEC 7810, 85.6 × 54 mm, ADR 039): either one card per
 * page of exactly that size (to keep on a phone, or print at 100 %), or an A4 sheet of up to eight
 * cards at exact size with cut marks. The card prints the organisation, the member's name, type,
 * number and validity, and a QR code of the signed check page's address (card-check.server.ts),
 * drawn as vector squares so that it stays sharp at any print size.
 *
 * The PDF is tagged like the forms (app/lib/form-pdf.server.ts): a section per card, its lines as
 * paragraphs in reading order, the QR code as a figure with its alternative text; outlines and
 * cut marks are artifacts.
 */
import QRCode from 'qrcode';
import { artifact, figure, startDocument, tagged, type Doc, type FormDocument, type FormImage, type Struct } from '~/lib/form-pdf.server';
import { loadPdfKit } from '~/lib/pdfkit.server';

/** Points per millimetre. */
export const MM = 72 / 25.4;
/** The ID-1 card, in points (85.6 × 54 mm). */
export const CARD = { width: 85.6 * MM, height: 54 * MM, radius: 3.18 * MM } as const;
/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;
/** The sheet: two columns of four cards, 10 mm apart, centred on the page. */
export const SHEET = { columns: 2, rows: 4, gutter: 10 * MM } as const;
/** Cut marks: this far from the card's corner, this long, along its edges. */
const MARK = { offset: 1 * MM, length: 3.5 * MM } as const;

const INK = '#1f2937';
const MUTED = '#4b5563';
const BRAND = '#7c2d12';
const PAD = 4 * MM;
const QR_SIZE = 23 * MM;

/** One card's words, in the member's language, and what its QR code opens. */
export interface CardFace {
  site: string;
  title: string;
  name: string;
  lines: { label: string; value: string }[];
  note: string;
  /** The signed check page; no QR code without it. */
  checkUrl?: string;
  qrAlt: string;
  logo?: FormImage;
}

/** The top-left corners of the sheet's slots, in points from the page's top-left, row by row. */
export function sheetSlots(): { x: number; y: number }[] {
  const blockWidth = SHEET.columns * CARD.width + (SHEET.columns - 1) * SHEET.gutter;
  const blockHeight = SHEET.rows * CARD.height + (SHEET.rows - 1) * SHEET.gutter;
  const left = (A4.width - blockWidth) / 2;
  const top = (A4.height - blockHeight) / 2;
  const slots: { x: number; y: number }[] = [];
  for (let r = 0; r < SHEET.rows; r++) for (let c = 0; c < SHEET.columns; c++) slots.push({ x: left + c * (CARD.width + SHEET.gutter), y: top + r * (CARD.height + SHEET.gutter) });
  return slots;
}

/** The dark modules of the QR code of `text`, as runs per row: [row, first column, length]. */
export function qrRuns(text: string): { size: number; runs: [number, number, number][] } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const runs: [number, number, number][] = [];
  for (let r = 0; r < modules.size; r++) {
    let start = -1;
    for (let c = 0; c <= modules.size; c++) {
      const dark = c < modules.size && modules.get(r, c) === 1;
      if (dark && start < 0) start = c;
      if (!dark && start >= 0) {
        runs.push([r, start, c - start]);
        start = -1;
      }
    }
  }
  return { size: modules.size, runs };
}

function drawQr(doc: Doc, parent: Struct, url: string, alt: string, x: number, y: number, size: number): void {
  const { size: n, runs } = qrRuns(url);
  const unit = size / n;
  tagged(
    doc,
    parent,
    'Figure',
    () => {
      doc.save().fillColor('#000000');
      for (const [r, c, len] of runs) doc.rect(x + c * unit, y + r * unit, len * unit, unit);
      doc.fill().restore();
    },
    { alt },
  );
}

/** The size at which `text` fits on one line of `width` (from `size` down to `min`). */
function fittingSize(doc: Doc, text: string, font: string, size: number, min: number, width: number): number {
  let s = size;
  while (s > min && doc.font(font).fontSize(s).widthOfString(text) > width) s -= 0.5;
  return s;
}

/** Draws one card with its top-left corner at (x, y). */
function drawCard(doc: Doc, root: Struct, face: CardFace, x: number, y: number): void {
  const sect = doc.struct('Sect');
  root.add(sect);
  const hasLogo = figure(doc, sect, face.logo, x + PAD, y + PAD, 8 * MM, 8 * MM);
  const headLeft = x + PAD + (hasLogo ? 10 * MM : 0);
  const headWidth = x + CARD.width - PAD - headLeft;
  tagged(doc, sect, 'H2', () => {
    doc.fillColor(BRAND).font('Helvetica-Bold').fontSize(fittingSize(doc, face.site, 'Helvetica-Bold', 10, 7, headWidth)).text(face.site, headLeft, y + PAD + 0.5 * MM, { width: headWidth, lineBreak: false });
  });
  tagged(doc, sect, 'P', () => void doc.fillColor(MUTED).font('Helvetica').fontSize(7.5).text(face.title, headLeft, y + PAD + 5 * MM, { width: headWidth, lineBreak: false }));
  const ruleY = y + 14 * MM;
  artifact(doc, () => doc.lineWidth(1).strokeColor(BRAND).moveTo(x + PAD, ruleY).lineTo(x + CARD.width - PAD, ruleY).stroke());
  const qrX = x + CARD.width - PAD - QR_SIZE;
  const textWidth = (face.checkUrl ? qrX - 3 * MM : x + CARD.width - PAD) - (x + PAD);
  let ty = ruleY + 2.5 * MM;
  tagged(doc, sect, 'P', () => {
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(fittingSize(doc, face.name, 'Helvetica-Bold', 12, 7, textWidth));
    doc.text(face.name, x + PAD, ty, { width: textWidth, height: 30, ellipsis: true });
  });
  ty = doc.y + 1.5 * MM;
  for (const line of face.lines) {
    tagged(doc, sect, 'P', () => {
      doc.fillColor(MUTED).font('Helvetica').fontSize(6.5).text(line.label, x + PAD, ty, { width: textWidth, lineBreak: false });
      doc.fillColor(INK).font('Helvetica-Bold').fontSize(fittingSize(doc, line.value, 'Helvetica-Bold', 8, 6, textWidth)).text(line.value, x + PAD, doc.y, { width: textWidth, lineBreak: false });
    });
    ty = doc.y + 1 * MM;
  }
  if (face.checkUrl) drawQr(doc, sect, face.checkUrl, face.qrAlt, qrX, ruleY + 2.5 * MM, QR_SIZE);
  tagged(doc, sect, 'P', () => void doc.fillColor(MUTED).font('Helvetica').fontSize(5.5).text(face.note, x + PAD, y + CARD.height - PAD - 4.2 * MM, { width: CARD.width - 2 * PAD, height: 5 * MM }));
  sect.end();
}

/** The card's outline (rounded like a bank card) and its eight cut marks. */
function outlineAndMarks(doc: Doc, x: number, y: number): void {
  artifact(doc, () => {
    doc.lineWidth(0.25).strokeColor('#9ca3af').roundedRect(x, y, CARD.width, CARD.height, CARD.radius).stroke();
    doc.lineWidth(0.3).strokeColor('#000000');
    for (const [cx, cy, dx, dy] of [[x, y, -1, -1], [x + CARD.width, y, 1, -1], [x, y + CARD.height, -1, 1], [x + CARD.width, y + CARD.height, 1, 1]] as const) {
      doc.moveTo(cx + dx * MARK.offset, cy).lineTo(cx + dx * (MARK.offset + MARK.length), cy).stroke();
      doc.moveTo(cx, cy + dy * MARK.offset).lineTo(cx, cy + dy * (MARK.offset + MARK.length)).stroke();
    }
  });
}

export type CardLayout = 'card' | 'sheet';

/**
 * The cards as a PDF: one card-size page per card ('card'), or A4 sheets of eight cards at exact
 * size with cut marks and `sheetNote` (how to print and cut) at the top of each page ('sheet').
 */
export async function renderCardsPdf(faces: CardFace[], layout: CardLayout, meta: FormDocument['meta'], sheetNote: string): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const card = layout === 'card';
  const { doc, pdf } = startDocument(PDFDocument, meta, card ? [CARD.width, CARD.height] : 'A4', 0);
  const root = doc.struct('Document');
  doc.addStructure(root);
  const slots = sheetSlots();
  faces.forEach((face, i) => {
    const newPage = card || i % slots.length === 0;
    if (newPage && i > 0) doc.addPage({ size: card ? [CARD.width, CARD.height] : 'A4', margin: 0 });
    if (card) return drawCard(doc, root, face, 0, 0);
    if (newPage) tagged(doc, root, 'P', () => void doc.fillColor(INK).font('Helvetica').fontSize(9).text(sheetNote, 36, 30, { width: A4.width - 72, align: 'center' }));
    const slot = slots[i % slots.length];
    outlineAndMarks(doc, slot.x, slot.y);
    drawCard(doc, root, face, slot.x, slot.y);
  });
  root.end();
  doc.end();
  return pdf;
}
