import { Link } from 'react-router';
import type { Route } from './+types/list';
import { USERS_PATH } from '~/domain/users/paths';
import { listUsers } from '~/domain/users/users.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { primaryButton, secondaryButton } from '~/ui/admin/Field';
import { DeleteControl } from '~/ui/admin/content';
import { RoleBadge, StatusBadge } from '~/ui/admin/users';

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'users' });
  return { users: await listUsers(db()), meId: me.id };
}

export const meta: Route.MetaFunction = () => [{ title: 'Utilisateurs | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Users({ loaderData }: Route.ComponentProps) {
  const { users, meId } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Utilisateurs</h1>
        <Link to={`${USERS_PATH}/new`} className={primaryButton}>
          Ajouter un utilisateur
        </Link>
      </div>
      <AdminTable caption="Comptes du tableau de bord" columns={['Nom', 'Email', 'Rôle', 'Statut']}>
            {users.map((u) => (
              <tr key={u.id} data-testid="user-row">
                <td className="px-4 py-3 font-medium text-gray-900">
                  {u.name}
                  {u.id === meId && <span className="ml-2 text-sm text-gray-600">(vous)</span>}
                </td>
                <td className="px-4 py-3 text-gray-800">{u.email}</td>
                <td className="px-4 py-3"><RoleBadge role={u.role} /></td>
                <td className="px-4 py-3"><StatusBadge status={u.status} /></td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-2">
                    <Link to={`${USERS_PATH}/${u.id}`} className={secondaryButton}>
                      Modifier<span className="sr-only"> {u.name}</span>
                    </Link>
                    <DeleteControl
                      href={`${USERS_PATH}/${u.id}/supprimer`}
                      name={u.name}
                      what="Le compte de"
                      description={
                        <>
                          Le compte de <strong>{u.name}</strong> ({u.email}) sera supprimé et ses sessions fermées.
                        </>
                      }
                    />
                  </div>
                </td>
              </tr>
            ))}
      </AdminTable>
    </div>
  );
}
