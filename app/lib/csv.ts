/** A CSV cell: quoted, and a leading =, +, - or @ neutralised so a spreadsheet never runs it. */
export function csvCell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** Rows to a CSV file body as spreadsheets open it (BOM, ';', CRLF). */
export function csvBody(header: string[], rows: (string | number | null)[][]): string {
  return `\uFEFF${[header.map(csvCell).join(';'), ...rows.map((r) => r.map(csvCell).join(';'))].join('\r\n')}\r\n`;
}
