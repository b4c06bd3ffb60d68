import { data } from 'react-router';
import type { Route } from './+types/new';
import { EMAIL_TAKEN, userAdded } from './messages';
import { mailStatusText, sendInvitation } from '~/domain/users/notify.server';
import { fieldErrors, formValues, userSchema } from '~/domain/users/schemas';
import { createUser } from '~/domain/users/users.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { Notice } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';
import { InvitationPanel, UserForm } from '~/ui/admin/users';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'users' });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'users' });
  const parsed = userSchema.safeParse(formValues(await request.formData()));
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), invitation: null, toast: null }, { status: 400 });
  const result = await createUser(db(), actorOf(me), parsed.data);
  if ('error' in result) return data({ errors: { email: EMAIL_TAKEN }, invitation: null, toast: null }, { status: 400 });
  const { user, token } = result;
  const { link, mail } = await sendInvitation(request, user, token, actorOf(me));
  // The link exists only in this answer: the database keeps its hash.
  const invitation = { name: user.name, email: user.email, link, mailSent: mail.status === 'sent', mailText: mailStatusText(mail, user.email) };
  return { errors: {}, invitation, toast: userAdded(user.name, invitation.mailSent) };
}

export const meta: Route.MetaFunction = () => [{ title: 'Ajouter un utilisateur | Administration' }, { name: 'robots', content: 'noindex' }];

export default function NewUser({ actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Ajouter un utilisateur</h1>
      {actionData?.invitation ? (
        <>
          {!hydrated && actionData.toast && <Notice tone="success" title={actionData.toast.title} />}
          <InvitationPanel invitation={actionData.invitation} />
        </>
      ) : (
        <>
          <p className="max-w-xl text-gray-700">La personne reçoit par email un lien pour choisir son mot de passe. Le lien vous est aussi montré, une seule fois.</p>
          <UserForm errors={actionData?.errors} submitLabel="Ajouter et inviter" />
        </>
      )}
    </div>
  );
}
