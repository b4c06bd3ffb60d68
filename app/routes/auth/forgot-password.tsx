import { Form, Link, data } from 'react-router';
import type { Route } from './+types/forgot-password';
import { ANONYMOUS, audit } from '~/domain/audit/audit.server';
import { sendReset } from '~/domain/users/notify.server';
import { LOGIN_PATH } from '~/domain/users/paths';
import { fieldErrors, forgotPasswordSchema, formValues } from '~/domain/users/schemas';
import { findCredentials, issueToken, toUser } from '~/domain/users/users.server';
import { hitResetLimit, retryMessage } from '~/domain/users/throttle.server';
import { trustedOrigin } from '~/lib/origin.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { withActionHeaders } from '~/lib/action-headers';
import { db, runtime } from '~/lib/runtime.server';
import { Field, Notice, primaryButton } from '~/ui/admin/Field';
import { useFormErrors, useHydrated } from '~/ui/admin/hooks';

type Outcome = 'sent' | 'noMail' | 'failed' | 'limited';

const OUTCOMES: Record<Outcome, { tone: 'success' | 'error'; title: string; text: string }> = {
  // The same words whether or not the address has an account: nobody learns who has one.
  sent: { tone: 'success', title: 'Demande enregistrée', text: 'Si un compte correspond à cette adresse, un lien de réinitialisation vient de lui être envoyé. Il est valable 60 minutes.' },
  noMail: { tone: 'error', title: 'Envoi impossible', text: "L'envoi d'emails n'est pas configuré sur ce serveur : aucun lien ne peut être envoyé. Contactez un administrateur." },
  failed: { tone: 'error', title: 'Envoi impossible', text: "L'email n'a pas pu être envoyé. Réessayez plus tard ou contactez un administrateur." },
  limited: { tone: 'error', title: 'Trop de demandes', text: '' },
};

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const parsed = forgotPasswordSchema.safeParse(values);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), outcome: null, retry: '' }, { status: 400 });
  const { email } = parsed.data;
  const { clientIp } = context.get(requestInfoContext);
  const wait = await hitResetLimit(db(), email, clientIp);
  if (wait) {
    return data({ errors: {}, outcome: 'limited' as Outcome, retry: retryMessage(wait) }, { status: 429, headers: { 'Retry-After': String(wait) } });
  }
  const row = await findCredentials(db(), email);
  await audit(db(), row ? { id: row.id, name: row.name } : ANONYMOUS, 'auth.reset_requested', email, { ip: clientIp, known: Boolean(row) });
  // From a Host that cannot be trusted no link is ever mailed (ADR 010): every email is answered so, known or not.
  let outcome: Outcome = !trustedOrigin(request) ? 'failed' : runtime().env.SMTP_URL ? 'sent' : 'noMail';
  if (row) {
    const user = toUser(row);
    const result = await sendReset(request, user, await issueToken(db(), user.id, 'reset'));
    if (result.status === 'failed') outcome = 'failed';
  }
  return data({ errors: {}, outcome, retry: '' }, { status: outcome === 'sent' ? 200 : 503 });
}

export const headers = withActionHeaders;

export const meta: Route.MetaFunction = () => [{ title: 'Mot de passe oublié | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(forgotPasswordSchema, actionData?.errors);
  const outcome = actionData?.outcome ? OUTCOMES[actionData.outcome] : null;
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">Mot de passe oublié ?</h1>
      <p className="mt-2 text-gray-700">Indiquez l'email de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.</p>
      {outcome && (
        <div className="mt-4">
          <Notice tone={outcome.tone} title={outcome.title} testId="reset-outcome">
            {actionData?.outcome === 'limited' ? actionData.retry : outcome.text}
          </Notice>
        </div>
      )}
      <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="mt-6 space-y-5">
        <Field name="email" label="Email" type="email" autoComplete="username" required error={errors.email} />
        <button type="submit" className={`${primaryButton} w-full`}>
          Envoyer le lien
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to={LOGIN_PATH} className="text-brand-700 underline">
          Retour à la connexion
        </Link>
      </p>
    </>
  );
}
