import { useEffect } from 'react';
import { Form, data, redirect, useNavigate } from 'react-router';
import type { Route } from './+types/edit';
import { audit } from '~/domain/audit/audit.server';
import { CONFLICT, EMAIL_TAKEN, lastAdminToast, userUpdated } from './messages';
import { mailStatusText, sendInvitation } from '~/domain/users/notify.server';
import { HOME_PATH, USERS_PATH } from '~/domain/users/paths';
import { fieldErrors, formValues, userSchema } from '~/domain/users/schemas';
import { formError } from '~/lib/form-errors.server';
import { getUser, issueToken, updateUser } from '~/domain/users/users.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { Notice, secondaryButton } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';
import { InvitationPanel, RoleBadge, StatusBadge, UserForm } from '~/ui/admin/users';

const notFound = () => data('Utilisateur introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'users' });
  const user = await getUser(db(), params.userId);
  if (!user) throw notFound();
  return { user };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'users' });
  const values = formValues(await request.formData());
  const fail = (status: number, errors: Record<string, string>, toast: ReturnType<typeof lastAdminToast> | null = null) =>
    formError({ saved: false, errors, toast, invitation: null }, status);

  if (values.intent === 'resend') {
    const user = await getUser(db(), params.userId);
    if (!user) throw notFound();
    if (user.status !== 'invited') return fail(400, { form: 'Ce compte est déjà actif : il utilise « Mot de passe oublié ? » pour changer de mot de passe.' });
    const { link, mail } = await sendInvitation(request, user, await issueToken(db(), user.id, 'invitation'), actorOf(me));
    await audit(db(), actorOf(me), 'user.invitation_resent', user.email);
    const invitation = { name: user.name, email: user.email, link, mailSent: mail.status === 'sent', mailText: mailStatusText(mail, user.email) };
    return { saved: false, errors: {}, toast: { title: 'Invitation renvoyée', description: user.email }, invitation };
  }

  const parsed = userSchema.safeParse(values);
  const version = Number(values.version);
  if (!parsed.success) return fail(400, fieldErrors(parsed.error));
  if (!Number.isInteger(version)) return fail(400, { form: CONFLICT });
  const result = await updateUser(db(), actorOf(me), params.userId, parsed.data, version);
  if ('error' in result) {
    switch (result.error) {
      case 'notFound':
        throw notFound();
      case 'emailTaken':
        return fail(400, { email: EMAIL_TAKEN });
      case 'conflict':
        return fail(409, { form: CONFLICT });
      case 'lastAdmin':
        return fail(409, {}, lastAdminToast('demote'));
    }
  }
  // Someone who gave up their own Admin role may no longer be on this screen.
  if (result.user.id === me.id && result.user.role !== 'Admin') throw redirect(HOME_PATH, 303);
  return { saved: true, errors: {}, toast: userUpdated(result.user.name), invitation: null };
}

export const meta: Route.MetaFunction = () => [{ title: 'Modifier un utilisateur | Administration' }, { name: 'robots', content: 'noindex' }];

export default function EditUser({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  useToast(actionData?.toast);
  // Saved: back to the list (the toast stays in view); without JavaScript, a note here instead.
  useEffect(() => {
    if (actionData?.saved) navigate(USERS_PATH);
  }, [actionData, navigate]);

  if (actionData?.invitation) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold text-gray-900">Modifier {user.name}</h1>
        <InvitationPanel invitation={actionData.invitation} />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Modifier {user.name}</h1>
      <p className="flex flex-wrap items-center gap-3">
        <RoleBadge role={user.role} /> <StatusBadge status={user.status} />
      </p>
      {/* Without JavaScript the toast's words are shown here. */}
      {!hydrated && actionData?.toast && (
        <Notice tone={actionData.saved ? 'success' : 'error'} title={actionData.toast.title}>
          {actionData.toast.description}
        </Notice>
      )}
      <UserForm key={user.version} defaults={user} errors={actionData?.errors} submitLabel="Enregistrer" />
      {user.status === 'invited' && (
        <Form method="post" className="max-w-xl border-t border-gray-200 pt-6">
          <input type="hidden" name="intent" value="resend" />
          <p className="mb-3 text-gray-700">Cette personne n'a pas encore choisi son mot de passe.</p>
          <button type="submit" className={secondaryButton}>
            Renvoyer l'invitation
          </button>
        </Form>
      )}
    </div>
  );
}
