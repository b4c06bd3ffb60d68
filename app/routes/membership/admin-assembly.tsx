import { Form } from 'react-router';
import type { Route } from './+types/admin-assembly';
import { membersUpToDate } from '~/domain/membership/register.server';
import { requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { Figures } from '~/ui/admin/Figures';
import { MemberCells, MembershipTabs } from '~/ui/admin/membership';
import { assemblyDayOf } from './assembly.server';
import { dayFr, memberView, membershipContext } from './admin.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'memberships' });
  const { db, day, settings, typeName } = await membershipContext();
  const chosen = assemblyDayOf(new URL(request.url), day);
  const members = chosen.day ? await membersUpToDate(db, chosen.day, settings.graceDays) : [];
  return {
    admin: user.role === 'Admin',
    day: chosen.day,
    typed: chosen.typed,
    error: chosen.day ? null : 'Une date valide (jour, mois, année).',
    dayFr: chosen.day ? dayFr(chosen.day) : '',
    graceDays: settings.graceDays,
    // The assembly's list needs no addresses, whoever reads it.
    members: members.map((m) => memberView(m, user, typeName, { contact: false })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Assemblée générale | Adhésions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Assembly({ loaderData }: Route.ComponentProps) {
  const { admin, day, typed, error, dayFr, members, graceDays } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Assemblée générale</h1>
      <MembershipTabs admin={admin} />
      <p className="text-gray-700">
        Les membres à jour à la date de l’assemblée : cotisation couvrant ce jour, ou échue depuis {graceDays} jours au plus (délai de grâce), et les membres d’honneur ou exemptés.
      </p>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <Field name="date" label="Date de l’assemblée" type="date" defaultValue={typed} error={error ?? undefined} required />
        <button type="submit" className={primaryButton}>Afficher</button>
      </Form>
      {day && (
        <>
          <Figures items={[{ label: `Membres à jour au ${dayFr} (base du quorum)`, value: members.length, testId: 'assembly-count' }]} />
          <a href={`/admin/adhesions/assemblee/feuille.pdf?date=${day}`} className={secondaryButton} download>Feuille de présence (PDF)</a>
          {members.length === 0 ? (
            <Notice tone="info">Aucun membre à jour à cette date.</Notice>
          ) : (
            <AdminTable caption={`Membres à jour au ${dayFr}`} columns={['N°', 'Nom', 'Type', 'État ce jour-là']}>
              {members.map((m) => (
                <tr key={m.id}>
                  <MemberCells m={m} />
                  <td className="px-4 py-3" />
                </tr>
              ))}
            </AdminTable>
          )}
        </>
      )}
    </div>
  );
}
