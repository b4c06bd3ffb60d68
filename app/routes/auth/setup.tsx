import { Form, data, redirect } from 'react-router';
import type { Route } from './+types/setup';
import { HOME_PATH, LOGIN_PATH } from '~/domain/users/paths';
import { fieldErrors, formValues, setupSchema } from '~/domain/users/schemas';
import { countUsers, createFirstAdmin } from '~/domain/users/users.server';
import { startSession } from '~/routes/admin/auth.server';
import { hashPassword } from '~/lib/password.server';
import { db } from '~/lib/runtime.server';
import { Field, NewPasswordFields, primaryButton } from '~/ui/admin/Field';
import { useFormErrors, useHydrated } from '~/ui/admin/hooks';

/** First start: while no user exists, this form creates the first Admin, once. */
export async function loader() {
  if ((await countUsers(db())) > 0) throw redirect(LOGIN_PATH);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const parsed = setupSchema.safeParse(values);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), name: values.name ?? '', email: values.email ?? '' }, { status: 400 });
  const { name, email, password } = parsed.data;
  const user = await createFirstAdmin(db(), { name, email, passwordHash: await hashPassword(password) }, 'setup');
  // Someone else was first: the form is gone, sign in like everyone else.
  if (!user) throw redirect(LOGIN_PATH, 303);
  throw redirect(HOME_PATH, { status: 303, headers: { 'Set-Cookie': await startSession(request, context, user.id) } });
}

export const meta: Route.MetaFunction = () => [{ title: 'Premier démarrage | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Setup({ actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(setupSchema, actionData?.errors);
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">Premier démarrage</h1>
      <p className="mt-2 text-gray-700">Aucun compte n'existe encore. Créez le premier compte Admin : il pourra ensuite inviter le reste de l'équipe.</p>
      <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="mt-6 space-y-5">
        <Field name="name" label="Nom" autoComplete="name" required defaultValue={actionData?.name} error={errors.name} />
        <Field name="email" label="Email" type="email" autoComplete="username" required defaultValue={actionData?.email} error={errors.email} />
        <NewPasswordFields errors={errors} />
        <button type="submit" className={`${primaryButton} w-full`}>
          Créer le compte Admin
        </button>
      </Form>
    </>
  );
}
