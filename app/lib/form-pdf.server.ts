import { loadPdfKit } from './pdfkit.server';

/**
 * Official-form PDFs (the tax receipt, the annual receipt, the member card): one A4 page laid out
 * like a French administrative form — a header with the logo, the title and a reference box,
 * then framed sections with a shaded title band, fields, drawn check boxes, boxed amounts and a
 * signature block. Callers describe the form (`FormDocument`); `renderFormPdf` draws it.
 *
 * The PDF is tagged (PDF/UA-style structure tree: H1, Sect, H2, P, L/LI/Lbl/LBody, Figure with
 * alternative text), has a language and displays its title; frames, bands and boxes are marked as
 * artifacts. Text is drawn in reading order, so `formText` is what a text extractor reads back.
 * Helvetica (WinAnsi): French accents, “’” and “€” print as they are. The same form and the same
 * `meta.date` always give the same bytes.
 */

/** An image to draw (PNG or JPEG bytes, see `app/domain/media/pdf-image.server.ts`) and what it shows, for screen readers. */
export interface FormImage {
  data: Buffer;
  alt: string;
}

export type FormItem =
  /** A paragraph. */
  | { kind: 'text'; text: string }
  /** "Label : value" on one line (wrapping when long). */
  | { kind: 'field'; label: string; value: string }
  /** A drawn check box per option, the checked ones crossed; an optional lead-in line. */
  | { kind: 'checkboxes'; label?: string; options: { label: string; checked: boolean }[] }
  /** Values in drawn boxes, each after its label (an amount in figures and in words). */
  | { kind: 'boxes'; boxes: { label: string; value: string }[] }
  /** Lines on the left, the signature image (if any) in a box on the right. */
  | { kind: 'signature'; lines: string[]; image?: FormImage; imageLabel: string };

export interface FormSection {
  title: string;
  items: FormItem[];
}

export interface FormDocument {
  meta: { title: string; author: string; subject: string; creator: string; lang: string; date: Date };
  header: {
    logo?: FormImage;
    title: string;
    /** Lines under the title (legal references). */
    lines: string[];
    /** The box at the top right: the document's number. */
    reference: { label: string; value: string };
  };
  /** A framed red notice under the header (a cancelled receipt). */
  notice?: string;
  sections: FormSection[];
}

// Geometry, in points (A4 is 595.28 × 841.89).
export const PAGE = { width: 595.28, height: 841.89, margin: 36 } as const;
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const PAD = 8;
const BAND = 19;
const LOGO = 72;
const REFERENCE_WIDTH = 150;
const BOX_SIZE = 10;
const SIGNATURE = { width: 180, height: 64 } as const;
const FONT = { body: 10, title: 14, heading: 11 } as const;
const INK = '#1f2937';
const LINE = '#374151';
const SHADE = '#e5e7eb';
const RED = '#b91c1c';

export type Doc = PDFKit.PDFDocument;
export type Struct = PDFKit.PDFStructureElement;

/** Adds a structure element of `type` under `parent` whose content is what `draw` prints. */
export function tagged(doc: Doc, parent: Struct, type: string, draw: () => void, options: Record<string, string> = {}): void {
  const el = doc.struct(type, options);
  parent.add(el);
  el.add(draw);
  el.end();
}

/** Draws decoration (frames, bands, boxes) outside the structure tree. */
export function artifact(doc: Doc, draw: () => void): void {
  doc.markContent('Artifact', { type: 'Layout' });
  doc.save();
  draw();
  doc.restore();
  doc.endMarkedContent();
}

/** An image pdfkit has decoded (its `openImage`, missing from its type definitions); `doc.image` takes it as it takes bytes. */
type OpenedImage = { width: number; height: number };

/** The image decoded and its size fitted in w × h, keeping its proportions; undefined when it cannot be read. */
export function fitted(doc: Doc, data: Buffer, w: number, h: number): { image: OpenedImage; width: number; height: number } | undefined {
  let image: OpenedImage;
  try {
    image = (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(data);
  } catch {
    return undefined;
  }
  const scale = Math.min(w / image.width, h / image.height);
  return { image, width: image.width * scale, height: image.height * scale };
}

/** Draws a readable image as a Figure with its alternative text, centred in the box (x, y, w, h). */
export function figure(doc: Doc, parent: Struct, img: FormImage | undefined, x: number, y: number, w: number, h: number): boolean {
  const fit = img && fitted(doc, img.data, w, h);
  if (!img || !fit) return false;
  const left = x + (w - fit.width) / 2;
  const top = y + (h - fit.height) / 2;
  tagged(doc, parent, 'Figure', () => void doc.image(fit.image as unknown as Buffer, left, top, { width: fit.width, height: fit.height }), { alt: img.alt });
  return true;
}

function header(doc: Doc, root: Struct, form: FormDocument): number {
  const { margin } = PAGE;
  const top = margin;
  const hasLogo = figure(doc, root, form.header.logo, margin, top, LOGO, LOGO);
  const left = margin + (hasLogo ? LOGO + 12 : 0);
  const width = PAGE.width - margin - REFERENCE_WIDTH - 12 - left;
  doc.fillColor(INK);
  tagged(doc, root, 'H1', () => void doc.font('Helvetica-Bold').fontSize(FONT.title).text(form.header.title, left, top + 4, { width, align: 'center' }));
  doc.moveDown(0.3);
  for (const line of form.header.lines) tagged(doc, root, 'P', () => void doc.font('Helvetica').fontSize(FONT.body).text(line, left, doc.y, { width, align: 'center' }));
  let bottom = Math.max(doc.y, top + (hasLogo ? LOGO : 0));
  // The reference box: a label band and the number.
  const rx = PAGE.width - margin - REFERENCE_WIDTH;
  const { label, value } = form.header.reference;
  artifact(doc, () => doc.rect(rx, top, REFERENCE_WIDTH, BAND).fill(SHADE));
  tagged(doc, root, 'P', () => {
    doc.fillColor(INK).font('Helvetica').fontSize(8).text(label, rx, top + 5, { width: REFERENCE_WIDTH, align: 'center' });
    doc.font('Helvetica-Bold').fontSize(11).text(value, rx, top + BAND + 7, { width: REFERENCE_WIDTH, align: 'center' });
  });
  const boxBottom = top + BAND + 28;
  artifact(doc, () => doc.lineWidth(0.8).strokeColor(LINE).rect(rx, top, REFERENCE_WIDTH, boxBottom - top).stroke());
  bottom = Math.max(bottom, boxBottom) + 10;
  if (form.notice) {
    const notice = form.notice;
    doc.font('Helvetica-Bold').fontSize(11);
    const h = doc.heightOfString(notice, { width: CONTENT_WIDTH - 2 * PAD }) + 2 * 6;
    tagged(doc, root, 'P', () => void doc.fillColor(RED).text(notice, margin + PAD, bottom + 6, { width: CONTENT_WIDTH - 2 * PAD, align: 'center' }));
    artifact(doc, () => doc.lineWidth(1.5).strokeColor(RED).rect(margin, bottom, CONTENT_WIDTH, h).stroke());
    bottom += h + 10;
  }
  return bottom;
}

/** Draws one item from (x, y) within `width`; returns the y under it. */
function item(doc: Doc, sect: Struct, it: FormItem, x: number, y: number, width: number, k: number): number {
  doc.fillColor(INK).font('Helvetica').fontSize(FONT.body * k);
  switch (it.kind) {
    case 'text':
      tagged(doc, sect, 'P', () => void doc.text(it.text, x, y, { width }));
      return doc.y + 4 * k;
    case 'field':
      tagged(doc, sect, 'P', () => {
        doc.fillColor('#4b5563').text(`${it.label} : `, x, y, { width, continued: true });
        doc.fillColor(INK).font('Helvetica-Bold').text(it.value);
      });
      return doc.y + 4 * k;
    case 'checkboxes': {
      let cy = y;
      if (it.label) {
        tagged(doc, sect, 'P', () => void doc.fillColor('#4b5563').text(it.label!, x, cy, { width }));
        cy = doc.y + 3 * k;
      }
      const list = doc.struct('L');
      sect.add(list);
      for (const option of it.options) {
        const li = doc.struct('LI');
        list.add(li);
        const bx = x + 4;
        const by = cy;
        // The box and, when checked, its cross (a letter X, so a text extractor reads which is ticked).
        tagged(
          doc,
          li,
          'Lbl',
          () => {
            doc.save().lineWidth(0.8).strokeColor(LINE).rect(bx, by, BOX_SIZE, BOX_SIZE).stroke().restore();
            if (option.checked) doc.fillColor(INK).font('Helvetica-Bold').fontSize(FONT.body * k).text('X', bx, by + 1, { width: BOX_SIZE, align: 'center', lineBreak: false });
          },
          { actual: option.checked ? 'Case cochée : ' : 'Case non cochée : ' },
        );
        tagged(doc, li, 'LBody', () => void doc.fillColor(INK).font('Helvetica').fontSize(FONT.body * k).text(option.label, bx + BOX_SIZE + 6, by + 1, { width: width - BOX_SIZE - 14 }));
        li.end();
        cy = Math.max(doc.y, by + BOX_SIZE) + 5 * k;
      }
      list.end();
      return cy;
    }
    case 'boxes': {
      let cy = y + 2;
      const labelWidth = 140;
      for (const box of it.boxes) {
        const bw = width - labelWidth;
        doc.font('Helvetica-Bold').fontSize(11 * k);
        const h = doc.heightOfString(box.value, { width: bw - 2 * 6 }) + 11 * k;
        artifact(doc, () => doc.rect(x + labelWidth, cy, bw, h).fill('#f9fafb'));
        tagged(doc, sect, 'P', () => {
          doc.fillColor('#4b5563').font('Helvetica').fontSize(FONT.body * k).text(box.label, x, cy + 7 * k, { width: labelWidth - 8 });
          doc.fillColor(INK).font('Helvetica-Bold').fontSize(11 * k).text(box.value, x + labelWidth + 6, cy + 6.5 * k, { width: bw - 2 * 6 });
        });
        artifact(doc, () => doc.lineWidth(0.8).strokeColor(LINE).rect(x + labelWidth, cy, bw, h).stroke());
        cy += h + 5 * k;
      }
      return cy + 1;
    }
    case 'signature': {
      const sx = x + width - SIGNATURE.width;
      const textWidth = sx - x - 12;
      doc.y = y;
      for (const line of it.lines) tagged(doc, sect, 'P', () => void doc.fillColor(INK).font('Helvetica').fontSize(FONT.body * k).text(line, x, doc.y, { width: textWidth }));
      const textBottom = doc.y;
      tagged(doc, sect, 'P', () => void doc.fillColor('#4b5563').font('Helvetica').fontSize(7.5).text(it.imageLabel, sx, y, { width: SIGNATURE.width, align: 'center' }));
      const boxTop = doc.y + 2;
      figure(doc, sect, it.image, sx + 4, boxTop + 4, SIGNATURE.width - 8, SIGNATURE.height - 8);
      artifact(doc, () => doc.lineWidth(0.8).strokeColor(LINE).rect(sx, boxTop, SIGNATURE.width, SIGNATURE.height).stroke());
      return Math.max(textBottom, boxTop + SIGNATURE.height) + 3;
    }
  }
}

function section(doc: Doc, root: Struct, s: FormSection, top: number, k: number): number {
  const { margin } = PAGE;
  const sect = doc.struct('Sect');
  root.add(sect);
  artifact(doc, () => doc.rect(margin, top, CONTENT_WIDTH, BAND).fill(SHADE));
  tagged(doc, sect, 'H2', () => void doc.fillColor(INK).font('Helvetica-Bold').fontSize(FONT.heading).text(s.title, margin + PAD, top + 5, { width: CONTENT_WIDTH - 2 * PAD, lineBreak: false }));
  let y = top + BAND + 6 * k;
  for (const it of s.items) y = item(doc, sect, it, margin + PAD, y, CONTENT_WIDTH - 2 * PAD, k);
  sect.end();
  const bottom = y + 3;
  artifact(doc, () => {
    doc.lineWidth(0.8).strokeColor(LINE);
    doc.rect(margin, top, CONTENT_WIDTH, bottom - top).stroke();
    doc.moveTo(margin, top + BAND).lineTo(margin + CONTENT_WIDTH, top + BAND).stroke();
  });
  return bottom + 12 * k;
}

/** Text sizes tried in turn, largest first, until the form fits on its page (long names and addresses). */
const SCALES = [1, 0.92, 0.84, 0.76, 0.68, 0.6];

/**
 * The form as one tagged A4 page. Drawn at full size; when the sections would run past the page,
 * drawn again with smaller text and spacing in the sections (the header keeps its size).
 */
export async function renderFormPdf(form: FormDocument): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  let attempt = draw(PDFDocument, form, SCALES[0]);
  for (const k of SCALES.slice(1)) {
    if (attempt.fits) break;
    attempt = draw(PDFDocument, form, k);
  }
  return attempt.pdf;
}

/** A tagged PDF document of `size` (points) with the form's metadata, and its bytes once ended. */
export function startDocument(PDFDocument: Awaited<ReturnType<typeof loadPdfKit>>, meta: FormDocument['meta'], size: 'A4' | [number, number], margin: number = PAGE.margin): { doc: Doc; pdf: Promise<Buffer> } {
  const doc = new PDFDocument({
    size,
    // Small margins: the layout places every line itself; pdfkit would only add a page past them.
    margins: { top: margin, left: margin, right: margin, bottom: 4 },
    compress: true,
    tagged: true,
    lang: meta.lang,
    displayTitle: true,
    pdfVersion: '1.7',
    info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Producer: meta.creator, Creator: meta.creator, CreationDate: meta.date, ModDate: meta.date },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const pdf = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, pdf };
}

function draw(PDFDocument: Awaited<ReturnType<typeof loadPdfKit>>, form: FormDocument, k: number): { fits: boolean; pdf: Promise<Buffer> } {
  const { doc, pdf } = startDocument(PDFDocument, form.meta, 'A4');
  let pages = 1;
  doc.on('pageAdded', () => pages++);
  const root = doc.struct('Document');
  doc.addStructure(root);
  let y = header(doc, root, form);
  for (const s of form.sections) y = section(doc, root, s, y, k);
  root.end();
  doc.end();
  return { fits: pages === 1 && y <= PAGE.height - PAGE.margin / 2, pdf };
}

/** The form's text in reading order, as one line of words (what a text extractor reads, spaces folded). */
export function formText(form: FormDocument): string {
  const itemText = (it: FormItem): string[] => {
    switch (it.kind) {
      case 'text':
        return [it.text];
      case 'field':
        return [`${it.label} : ${it.value}`];
      case 'checkboxes':
        return [...(it.label ? [it.label] : []), ...it.options.map((o) => (o.checked ? `X ${o.label}` : o.label))];
      case 'boxes':
        return it.boxes.flatMap((b) => [b.label, b.value]);
      case 'signature':
        return [...it.lines, it.imageLabel];
    }
  };
  const parts = [
    form.header.title,
    ...form.header.lines,
    form.header.reference.label,
    form.header.reference.value,
    ...(form.notice ? [form.notice] : []),
    ...form.sections.flatMap((s) => [s.title, ...s.items.flatMap(itemText)]),
  ];
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
