/** A CSV cell: quoted, and a leading =, +, - or @ neutralised so a spreadsheet never runs it. */
export function csvCell(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** A whole CSV file as spreadsheets in French locales open it: BOM, ';' between cells, CRLF. */
export function csvFile(header: string[], rows: (string | number | null | undefined)[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`;
}
