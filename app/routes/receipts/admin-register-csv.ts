import type { Route } from './+types/admin-register-csv';
import { listReceipts, totalsOf } from '~/domain/receipts/register.server';
import { requireUser } from '~/routes/admin/auth.server';
import { csvDocument, csvResponse } from '~/lib/csv';
import { runtime } from '~/lib/runtime.server';
import { toDecimalString } from '~/lib/currency';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import { parisDay } from '~/lib/paris';
import { yearOf } from './admin-receipts.server';
import { NATURE_LABELS, NATURES, isNature, issuedByNature } from '~/domain/receipts/nature';

/**
 * The register of a year as CSV, ending with the total of the valid receipts (what is declared).
 * Dates are days in Paris (YYYY-MM-DD), as the PDF prints them and the number counts the year.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const year = yearOf(request);
  const rows = await listReceipts(runtime().db, year);
  const header = ['Numéro', 'Type', 'Date d’émission', 'Date du versement', 'Donateur', 'Entreprise', 'SIREN', 'Adresse', 'Code postal', 'Commune', 'Pays', 'Email', 'Montant EUR', 'Mode de versement', 'Statut', 'Motif d’annulation', 'Remplace', 'Nature du don', 'Description du don'];
  const byId = new Map(rows.map((r) => [r.id, r.number]));
  const lines = rows.map((r) => {
    const d = JSON.parse(r.donor) as TaxDetails;
    return [
      r.number,
      r.kind === 'annual' ? 'Annuel' : 'Don',
      parisDay(new Date(r.issued_at)),
      parisDay(new Date(r.paid_at)),
      d.name,
      d.company,
      d.siren,
      d.address,
      d.postalCode,
      d.city,
      d.country,
      r.donor_email,
      toDecimalString(r.amount_cents, 'EUR'),
      r.method,
      r.status === 'issued' ? 'émis' : 'annulé',
      r.cancel_reason,
      r.replaces_id ? (byId.get(r.replaces_id) ?? r.replaces_id) : '',
      NATURE_LABELS[isNature(r.nature) ? r.nature : 'numeraire'],
      r.nature_description ?? '',
    ];
  });
  const totals = totalsOf(rows);
  const blank = (n: number) => Array<string>(n).fill('');
  lines.push(['Total des reçus émis', String(totals.issuedCount), ...blank(10), toDecimalString(totals.issuedCents, 'EUR'), ...blank(6)]);
  // Money apart from goods and waived expenses (ADR 030): one line per nature.
  const natures = issuedByNature(rows);
  for (const n of NATURES) lines.push([`dont ${NATURE_LABELS[n].toLowerCase()}`, String(natures[n].count), ...blank(10), toDecimalString(natures[n].cents, 'EUR'), ...blank(4), NATURE_LABELS[n], '']);
  return csvResponse(csvDocument(header, lines), `recus-fiscaux-${year}.csv`);
}
