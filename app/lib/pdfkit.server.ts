/**
 * pdfkit, loaded with the first PDF drawn (a receipt, a form, an attendance list) rather than when
 * a worker starts: a worker that only serves pages never holds it (issue 40, memory in service).
 */
type PdfKit = typeof import('pdfkit');

let loaded: Promise<PdfKit> | undefined;

export function loadPdfKit(): Promise<PdfKit> {
  // A CommonJS module: its exports are the import's default (the namespace itself where no interop wraps it).
  return (loaded ??= import('pdfkit').then((m) => (m as unknown as { default?: PdfKit }).default ?? (m as unknown as PdfKit)));
}
