/**
 * CSV for spreadsheets (Excel, LibreOffice): `;`-separated, every cell quoted, CRLF line ends and a
 * UTF-8 byte-order mark so accents open right. A cell starting with =, +, -, @, a tab or a carriage
 * return is prefixed with ' so a spreadsheet shows it as text and never runs it as a formula
 * (OWASP "CSV injection").
 */
export type CsvValue = string | number | null | undefined;

export function csvCell(v: CsvValue): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** A whole file: the header line, then one line per row. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** The response of a CSV download named `filename`, never kept by a shared cache. */
export function csvResponse(body: string, filename: string): Response {
  return new Response(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"`, 'Cache-Control': 'private, no-store' },
  });
}
