/**
 * The general assembly's attendance sheet (ADR 021): one line per member up to date on the day,
 * with a column to sign, drawn by the shared one-table layout (app/lib/table-pdf.server.ts).
 */
import { renderTablePdf } from '~/lib/table-pdf.server';

export interface AttendanceLine {
  number: number;
  name: string;
  type: string;
}

/** N°, name, type, signature: 495 pt, an A4 page (595 pt) within its margins. */
const COLUMNS = [
  { title: 'N°', width: 40 },
  { title: 'Nom', width: 190 },
  { title: 'Type', width: 120 },
  { title: 'Signature', width: 145 },
];

/** The sheet's heading lines (tests read them back). */
export function attendanceHeading(title: string, dayFr: string, count: number): string[] {
  return [title, `Assemblée générale du ${dayFr}`, `Membres à jour de leur cotisation à cette date : ${count}`];
}

export async function renderAttendancePdf(heading: string[], lines: readonly AttendanceLine[], createdAt: Date): Promise<Buffer> {
  return renderTablePdf({ heading, title: heading[1], columns: COLUMNS, rows: lines.map((l) => [String(l.number), l.name, l.type, '']), createdAt });
}
