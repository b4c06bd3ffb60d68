import type { Route } from './+types/csv';
import { toDecimalString } from '~/lib/currency';
import { REPORT_TABLES, reportTables, type ReportFormat, type ReportTableId } from '~/domain/reports/tables';
import { requireUser } from '~/routes/admin/auth.server';
import { csvDocument, csvResponse } from '~/lib/csv';
import { reportFor } from './report.server';

/** Plain values for a spreadsheet: euros as "1234.50", shares in percent as "18.3". */
const CSV_FORMAT: ReportFormat = {
  money: (cents) => toDecimalString(cents, 'EUR'),
  count: (n) => String(n),
  percent: (ratio) => (ratio === null ? '' : (ratio * 100).toFixed(1)),
  month: (month) => month,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'reports' });
  const id = new URL(request.url).searchParams.get('table') as ReportTableId;
  if (!REPORT_TABLES.includes(id)) throw new Response('Tableau inconnu', { status: 404 });
  const { report, members } = await reportFor(request);
  const table = reportTables(report, CSV_FORMAT, members).find((t) => t.id === id)!;
  return csvResponse(csvDocument(table.columns, table.rows), `rapport-${id}-${report.from.slice(0, 10)}-${report.to.slice(0, 10)}.csv`);
}
