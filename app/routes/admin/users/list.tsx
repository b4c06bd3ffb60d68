import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import type { Route } from './+types/list';
import { USERS_PATH } from '~/domain/users/paths';
import { listUsers, type User } from '~/domain/users/users.server';
import { requireUser } from '~/lib/auth.server';
import { db } from '~/lib/runtime.server';
import { dangerButton, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';
import { RoleBadge, StatusBadge } from '~/ui/admin/users';
import type { action as deleteAction } from './delete';

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'users' });
  return { users: await listUsers(db()), meId: me.id };
}

export const meta: Route.MetaFunction = () => [{ title: 'Utilisateurs | Administration' }, { name: 'robots', content: 'noindex' }];

/** 'Êtes-vous sûr ?' before deleting, in a modal dialog; the deletion page does the same without JavaScript. */
function DeleteButton({ user }: { user: User }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<typeof deleteAction>();
  const [asked, setAsked] = useState(false);
  useToast(fetcher.data?.toast);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data) dialog.current?.close();
  }, [fetcher.state, fetcher.data]);
  const href = `${USERS_PATH}/${user.id}/supprimer`;
  if (!hydrated) {
    return (
      <Link to={href} className={`${secondaryButton} text-red-800`}>
        Supprimer<span className="sr-only"> {user.name}</span>
      </Link>
    );
  }
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} text-red-800`}
        onClick={() => {
          setAsked(true);
          dialog.current?.showModal();
        }}
      >
        Supprimer<span className="sr-only"> {user.name}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={`confirm-${user.id}`} onClose={() => setAsked(false)} className="m-auto w-full max-w-md rounded-xl p-6 shadow-xl backdrop:bg-black/40">
        {asked && (
          <>
            <h2 id={`confirm-${user.id}`} className="text-xl font-bold text-gray-900">
              Êtes-vous sûr ?
            </h2>
            <p className="mt-2 text-gray-700">
              Le compte de <strong>{user.name}</strong> ({user.email}) sera supprimé et ses sessions fermées. Cette action est irréversible.
            </p>
            <fetcher.Form method="post" action={href} className="mt-6 flex flex-wrap justify-end gap-3">
              <input type="hidden" name="js" value="1" />
              <button type="button" className={secondaryButton} onClick={() => dialog.current?.close()} autoFocus>
                Annuler
              </button>
              <button type="submit" className={dangerButton} disabled={fetcher.state !== 'idle'}>
                Supprimer
              </button>
            </fetcher.Form>
          </>
        )}
      </dialog>
    </>
  );
}

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
      <div className="overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-gray-200 text-left">
          <caption className="sr-only">Comptes du tableau de bord</caption>
          <thead className="bg-gray-50 text-sm text-gray-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">Nom</th>
              <th scope="col" className="px-4 py-3 font-semibold">Email</th>
              <th scope="col" className="px-4 py-3 font-semibold">Rôle</th>
              <th scope="col" className="px-4 py-3 font-semibold">Statut</th>
              <th scope="col" className="px-4 py-3 font-semibold"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
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
                    <DeleteButton user={u} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
