import { Form, data } from 'react-router';
import type { Route } from './+types/account';
import { changePasswordSchema, fieldErrors, formValues } from '~/domain/users/schemas';
import { changePassword, findCredentials } from '~/domain/users/users.server';
import { clearLoginFailures, loginBlockedFor, recordLoginFailure, retryMessage } from '~/domain/users/throttle.server';
import { requireUser } from '~/routes/admin/auth.server';
import { hashPassword, verifyPassword } from '~/lib/password.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { withActionHeaders } from '~/lib/action-headers';
import { db } from '~/lib/runtime.server';
import { Field, NewPasswordFields, Notice, primaryButton } from '~/ui/admin/Field';
import { useFormErrors, useHydrated, useToast } from '~/ui/admin/hooks';
import { RoleBadge } from '~/ui/admin/users';

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'account' });
  return { me: { name: me.name, email: me.email, role: me.role } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'account' });
  const values = formValues(await request.formData());
  const parsed = changePasswordSchema.safeParse(values);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), toast: null, saved: false }, { status: 400 });
  // Guessing the current password from a borrowed session counts as failed sign-ins.
  const { clientIp } = context.get(requestInfoContext);
  const blocked = await loginBlockedFor(db(), me.email, clientIp);
  if (blocked.retryAfter) {
    return data({ errors: { current: retryMessage(blocked.retryAfter) }, toast: null, saved: false }, { status: 429, headers: { 'Retry-After': String(blocked.retryAfter) } });
  }
  const row = await findCredentials(db(), me.email);
  if (!row || !(await verifyPassword(row.password_hash, parsed.data.current))) {
    await recordLoginFailure(db(), me.email, clientIp);
    return data({ errors: { current: 'Mot de passe actuel incorrect.' }, toast: null, saved: false }, { status: 400 });
  }
  await clearLoginFailures(db(), me.email, clientIp);
  await changePassword(db(), me.id, await hashPassword(parsed.data.password), me.sessionId);
  return { errors: {}, saved: true, toast: { title: 'Mot de passe modifié', description: 'Vos autres sessions ont été fermées.', variant: 'success' as const } };
}

export const headers = withActionHeaders;

export const meta: Route.MetaFunction = () => [{ title: 'Mon mot de passe | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { me } = loaderData;
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(changePasswordSchema, actionData?.errors);
  useToast(actionData?.toast);
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Mon mot de passe</h1>
      <p className="flex flex-wrap items-center gap-2 text-gray-700">
        {me.name} · {me.email} <RoleBadge role={me.role} />
      </p>
      {!hydrated && actionData?.toast && <Notice tone="success" title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="space-y-5" key={actionData?.saved ? 'saved' : 'form'}>
        <input type="email" name="username" autoComplete="username" value={me.email} readOnly hidden />
        <Field name="current" label="Mot de passe actuel" type="password" autoComplete="current-password" required error={errors.current} />
        <NewPasswordFields errors={errors} label="Nouveau mot de passe" confirmLabel="Confirmer le nouveau mot de passe" />
        <button type="submit" className={primaryButton}>
          Changer le mot de passe
        </button>
      </Form>
    </div>
  );
}
