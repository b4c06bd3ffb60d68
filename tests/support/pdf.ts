import { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';

export interface DrawnImage {
  /** Width and height on the page, in points. */
  w: number;
  h: number;
  /** Left edge, and lower edge measured from the top of the page (pdfkit draws top-down). */
  x: number;
  y: number;
}

/** The images drawn on page 1 of a pdfkit PDF, in drawing order. */
export async function imagesDrawn(pdf: Buffer): Promise<DrawnImage[]> {
  const { OPS } = await getResolvedPDFJS();
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const ops = await (await doc.getPage(1)).getOperatorList();
  const drawn: DrawnImage[] = [];
  let matrix: number[] = [];
  ops.fnArray.forEach((fn, i) => {
    if (fn === OPS.transform) matrix = ops.argsArray[i] as number[];
    if (fn === OPS.paintImageXObject) drawn.push({ w: matrix[0], h: Math.abs(matrix[3]), x: matrix[4], y: matrix[5] });
  });
  return drawn;
}

/** A PDF's text, its pages one after the other, runs of white space as one space. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ').trim();
}

/** The PDF attached to a mail as received by the SMTP sink (its base64 part decoded). */
export function attachedPdf(raw: string): { name: string; pdf: Buffer } {
  const m = /Content-Type: application\/pdf; name=([^\r\n]+)\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!m) throw new Error('no PDF attached');
  return { name: m[1].trim(), pdf: Buffer.from(m[2].replace(/\s+/g, ''), 'base64') };
}
