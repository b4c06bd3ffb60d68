import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-new';
import { letterErrors, letterFormValues, letterSchema, versionsOf } from '~/domain/letters/letter';
import { createLetter } from '~/domain/letters/letters.server';
import { db } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { FormActions, Notice } from '~/ui/admin/Field';
import { LetterFields } from '~/ui/admin/letters';

/** /admin/lettres/nouvelle: a letter written from scratch, saved as a draft. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters' });
  return {};
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const parsed = letterSchema.safeParse(letterFormValues(await request.formData()));
  if (!parsed.success) return data({ errors: letterErrors(parsed.error) }, { status: 400 });
  const id = await createLetter(db(), actorOf(user), versionsOf(parsed.data), { language: parsed.data.audienceLanguage, source: parsed.data.audienceSource });
  throw redirect(`/admin/lettres/${id}?ok=created`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Nouvelle lettre | Administration' }, { name: 'robots', content: 'noindex' }];

export default function NewLetter({ actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Nouvelle lettre</h1>
      {Object.keys(errors).length > 0 && <Notice tone="error" title="La lettre n’a pas été enregistrée">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-6">
        <LetterFields errors={errors} />
        <FormActions submitLabel="Enregistrer le brouillon" cancelTo="/admin/lettres" />
      </Form>
    </div>
  );
}
