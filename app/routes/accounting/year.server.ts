import { askedYear } from '~/domain/accounting/chart';
import { accountingYear, type AccountingYear } from '~/domain/accounting/export.server';
import { getAccountingSettings } from '~/domain/accounting/settings.server';
import { parisDay } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';

/** The fiscal year the request's `?annee=` names (the current one when absent); 404 when it names none. */
export async function yearFor(request: Request): Promise<AccountingYear> {
  const db = runtime().db;
  const { fiscalStartMonth } = await getAccountingSettings(db);
  const year = askedYear(new URL(request.url).searchParams.get('annee'), fiscalStartMonth, parisDay(new Date()));
  if (year === null) throw new Response('Exercice inconnu', { status: 404 });
  return accountingYear(db, year);
}
