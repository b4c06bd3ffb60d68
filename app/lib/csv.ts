/**
 * CSV for spreadsheets (Excel, LibreOffice): `;`-separated, CRLF lines, a BOM so accents survive,
 * every cell quoted, and a leading =, +, -, @, tab or CR neutralised so a spreadsheet never runs a
 * cell as a formula (CSV injection).
 */
export function csvCell(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function csvBody(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** The response of a CSV download named `filename`, never cached by a shared cache. */
export function csvResponse(body: string, filename: string): Response {
  return new Response(body, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"`, 'Cache-Control': 'private, no-store' },
  });
}
