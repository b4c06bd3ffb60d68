import type { Route } from './+types/admin-declaration-csv';
import { fiscalYearName } from '~/domain/fiscal-year/fiscal-year';
import { DECLARATION_CSV_HEADER, declarationLines } from '~/domain/receipts/declaration';
import { declarationOf } from '~/domain/receipts/declaration.server';
import { csvDocument, csvResponse } from '~/lib/csv';
import { runtime } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';
import { yearOf } from './admin-receipts.server';

/** The 222 bis figures of a fiscal year as CSV: one line per regime, then the total (ADR 035). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const year = yearOf(request);
  const d = await declarationOf(runtime().db, year);
  const name = fiscalYearName(d.startMonth, year);
  return csvResponse(csvDocument(DECLARATION_CSV_HEADER, declarationLines(name, d.figures)), `declaration-dons-222bis-${name}.csv`);
}
