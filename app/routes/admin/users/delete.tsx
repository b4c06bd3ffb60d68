import { data, redirect } from 'react-router';
import type { Route } from './+types/delete';
import { lastAdminToast, userDeleted } from './messages';
import { LOGIN_PATH, USERS_PATH } from '~/domain/users/paths';
import { deleteUser, getUser } from '~/domain/users/users.server';
import { actorOf, endSession, requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { Notice } from '~/ui/admin/Field';
import { BackToList, ConfirmDeleteForm } from '~/ui/admin/ConfirmDelete';
import { useHydrated, useToast } from '~/ui/admin/hooks';

/** 'Êtes-vous sûr ?' as a page (without JavaScript); the list's dialog posts here too. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'users' });
  const user = await getUser(db(), params.userId);
  // Not thrown: right after the deletion this page still shows that it is done.
  if (!user) return data({ user: null }, { status: 404 });
  return { user: { name: user.name, email: user.email } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'users' });
  const enhanced = (await request.formData()).get('js') === '1';
  const result = await deleteUser(db(), actorOf(me), params.userId);
  if ('error' in result) {
    if (result.error === 'notFound') throw data('Utilisateur introuvable', { status: 404 });
    return data({ deleted: false, toast: lastAdminToast('delete', result.onlyUser) }, { status: 409 });
  }
  // Deleting one's own account ends one's session with it.
  if (result.user.id === me.id) throw redirect(LOGIN_PATH, { status: 303, headers: { 'Set-Cookie': await endSession(request, context) } });
  // Without JavaScript, back to the list (which no longer shows the user); with it, a toast.
  if (!enhanced) throw redirect(USERS_PATH, 303);
  return { deleted: true, toast: userDeleted(result.user.name) };
}

export const meta: Route.MetaFunction = () => [{ title: 'Supprimer un utilisateur | Administration' }, { name: 'robots', content: 'noindex' }];

export default function DeleteUser({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  if (actionData?.deleted) {
    return <BackToList title={actionData.toast.title} to={USERS_PATH} label="Retour à la liste" />;
  }
  const { user } = loaderData;
  if (!user) {
    return <BackToList title="Utilisateur introuvable" to={USERS_PATH} label="Retour à la liste" />;
  }
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Êtes-vous sûr ?</h1>
      {!hydrated && actionData?.toast && (
        <Notice tone="error" title={actionData.toast.title}>
          {actionData.toast.description}
        </Notice>
      )}
      <p className="text-gray-700">
        Le compte de <strong>{user.name}</strong> ({user.email}) sera supprimé et ses sessions fermées. Cette action est irréversible.
      </p>
      <ConfirmDeleteForm cancelTo={USERS_PATH} />
    </div>
  );
}
