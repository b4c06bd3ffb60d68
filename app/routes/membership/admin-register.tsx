import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-register';
import { EXPIRING_WITHIN_DAYS } from '~/domain/membership/forms';
import { listMembers } from '~/domain/membership/register.server';
import { MEMBERSHIP_STATES, STATE_LABELS } from '~/domain/membership/status';
import { requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { MemberCells, MembershipTabs } from '~/ui/admin/membership';
import { filtersOf, memberView, membershipContext } from './admin.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'memberships' });
  const { db, day, settings, types, typeName } = await membershipContext();
  const url = new URL(request.url);
  const filters = filtersOf(url);
  const members = await listMembers(db, filters, day, settings.graceDays);
  const thisYear = Number(day.slice(0, 4));
  return {
    admin: user.role === 'Admin',
    filters: filters.raw,
    query: url.search,
    types: types.map((t) => ({ id: t.id, name: t.translations.fr.name })),
    years: Array.from({ length: 6 }, (_, i) => thisYear + 1 - i),
    members: members.map((m) => memberView(m, user, typeName)),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Adhésions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function MembershipRegister({ loaderData }: Route.ComponentProps) {
  const { admin, filters, members, types, years, query } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Adhésions</h1>
        {admin && (
          <div className="flex flex-wrap gap-3">
            <Link to="/admin/adhesions/nouveau" className={primaryButton}>Ajouter un membre</Link>
            <a href={`/admin/adhesions/export.csv${query}`} className={secondaryButton} download>Exporter en CSV</a>
          </div>
        )}
      </div>
      <MembershipTabs admin={admin} />
      <Form method="get" className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field name="q" label="Rechercher (nom, e-mail, numéro)" type="search" defaultValue={filters.q} maxLength={100} />
        <div>
          <label htmlFor="etat" className="block text-sm font-medium text-gray-900">État</label>
          <select id="etat" name="etat" defaultValue={filters.etat} className={inputClass(false)}>
            <option value="">Tous</option>
            {MEMBERSHIP_STATES.map((s) => <option key={s} value={s}>{STATE_LABELS[s]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="type" className="block text-sm font-medium text-gray-900">Type</label>
          <select id="type" name="type" defaultValue={filters.type} className={inputClass(false)}>
            <option value="">Tous</option>
            {types.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="annee" className="block text-sm font-medium text-gray-900">Année de cotisation</label>
          <select id="annee" name="annee" defaultValue={filters.annee} className={inputClass(false)}>
            <option value="">Toutes</option>
            {years.map((y) => <option key={y} value={y}>{y}</option>)}
          </select>
        </div>
        <label className="inline-flex min-h-11 items-center gap-3 self-end font-medium text-gray-900">
          <input type="checkbox" name="expire" value="1" defaultChecked={filters.expire === '1'} className="h-5 w-5" /> Expire dans les {EXPIRING_WITHIN_DAYS} jours
        </label>
        <div className="flex flex-wrap items-end gap-3">
          <button type="submit" className={primaryButton}>Filtrer</button>
          <Link to="/admin/adhesions" className={secondaryButton}>Réinitialiser</Link>
        </div>
      </Form>
      <p className="text-gray-700" data-testid="member-count" role="status">{members.length} membre{members.length > 1 ? 's' : ''}</p>
      {members.length === 0 ? (
        <p className="text-gray-700">Aucun membre ne correspond.</p>
      ) : (
        <AdminTable caption="Registre des membres" columns={['N°', 'Nom', 'Type', 'État', 'Fin de période', ...(admin ? ['E-mail'] : [])]}>
          {members.map((m) => (
            <tr key={m.id}>
              <MemberCells m={m} />
              <td className="px-4 py-3 whitespace-nowrap">{m.endsOn}</td>
              {m.contact && <td className="px-4 py-3 break-all">{m.contact.email || '—'}</td>}
              <td className="px-4 py-3">
                <Link to={`/admin/adhesions/${m.id}`} className="underline">Voir<span className="sr-only"> la fiche de {m.name}</span></Link>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
