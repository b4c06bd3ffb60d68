import type { Route } from './+types/admin-register-csv';
import { listMembers } from '~/domain/membership/register.server';
import { STATE_LABELS } from '~/domain/membership/status';
import { requireUser } from '~/routes/admin/auth.server';
import { csvDocument, csvResponse } from '~/lib/csv';
import { filtersOf, membershipContext } from './admin.server';

/** The register as CSV (Admin: it holds addresses), with the list's filters; states on today's date. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const { db, day, settings, typeName } = await membershipContext();
  const members = await listMembers(db, filtersOf(new URL(request.url)), day, settings.graceDays);
  const header = ['Numéro', 'Prénom', 'Nom', 'Type', 'État', 'Fin de période', 'Motif de l’état forcé', 'E-mail', 'Téléphone', 'Adresse', 'Code postal', 'Commune', 'Pays', 'Langue', 'Inscrit le'];
  const rows = members.map((m) => [
    m.number,
    m.firstName,
    m.lastName,
    typeName(m.typeId),
    STATE_LABELS[m.state],
    m.endsOn ?? '',
    m.overrideReason,
    m.email,
    m.phone,
    m.address,
    m.postalCode,
    m.city,
    m.country,
    m.language,
    m.createdAt.slice(0, 10),
  ]);
  return csvResponse(csvDocument(header, rows), `adherents-${day}.csv`);
}
