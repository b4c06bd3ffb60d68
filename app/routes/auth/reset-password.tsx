import type { Route } from './+types/reset-password';
import { SetPasswordForm } from '~/ui/admin/SetPasswordForm';
import { passwordLinkAction, passwordLinkLoader } from './password-link.server';

export const loader = passwordLinkLoader('reset');
export const action = passwordLinkAction('reset');

export const meta: Route.MetaFunction = () => [{ title: 'Nouveau mot de passe | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  return <SetPasswordForm title="Nouveau mot de passe" intro="Choisissez un nouveau mot de passe pour" submitLabel="Enregistrer le mot de passe" link={loaderData} result={actionData} />;
}
