import type { Route } from './+types/fec';
import { fecFile } from '~/domain/accounting/export.server';
import { requireUser } from '~/routes/admin/auth.server';
import { yearFor } from './year.server';

/** The FEC of a fiscal year (ADR 034), ISO 8859-15, named SIRENFECAAAAMMJJ.txt; 409 while no SIREN names it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'accounting' });
  const file = fecFile(await yearFor(request));
  if (!file) return new Response('Renseignez le SIREN dans le plan comptable (ou dans les réglages des reçus fiscaux) pour nommer le FEC.', { status: 409, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(file.bytes, {
    headers: { 'Content-Type': 'text/plain; charset=iso-8859-15', 'Content-Disposition': `attachment; filename="${file.name}"`, 'Cache-Control': 'private, no-store' },
  });
}
