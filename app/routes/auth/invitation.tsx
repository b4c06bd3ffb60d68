import type { Route } from './+types/invitation';
import { SetPasswordForm } from '~/ui/admin/SetPasswordForm';
import { passwordLinkAction, passwordLinkLoader } from './password-link.server';

export const loader = passwordLinkLoader('invitation');
export const action = passwordLinkAction('invitation');

export const meta: Route.MetaFunction = () => [{ title: 'Invitation | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  return <SetPasswordForm title="Bienvenue dans l'équipe" intro="Choisissez le mot de passe de votre compte :" submitLabel="Activer mon compte" link={loaderData} result={actionData} />;
}
