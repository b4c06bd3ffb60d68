import type { Route } from './+types/journal-csv';
import { journalCsv } from '~/domain/accounting/export.server';
import { csvResponse } from '~/lib/csv';
import { requireUser } from '~/routes/admin/auth.server';
import { yearFor } from './year.server';

/** The journal of a fiscal year as a CSV for a spreadsheet (ADR 034). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'accounting' });
  const { name, text } = journalCsv(await yearFor(request));
  return csvResponse(text, name);
}
