import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-new';
import { audienceOf, letterErrors, letterFormValues, letterSchema, versionsOf } from '~/domain/letters/letter';
import { audienceErrors, segmentChoices } from '~/domain/letters/audience.server';
import { createLetter } from '~/domain/letters/letters.server';
import { db } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { FormActions, Notice } from '~/ui/admin/Field';
import { LetterFields } from '~/ui/admin/letters';

/** /admin/lettres/nouvelle: a letter written from scratch, saved as a draft. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters' });
  return { segments: await segmentChoices(db()) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const parsed = letterSchema.safeParse(letterFormValues(await request.formData()));
  if (!parsed.success) return data({ errors: letterErrors(parsed.error) }, { status: 400 });
  const audience = audienceOf(parsed.data);
  const wrong = await audienceErrors(db(), audience);
  if (Object.keys(wrong).length) return data({ errors: wrong }, { status: 400 });
  const id = await createLetter(db(), actorOf(user), versionsOf(parsed.data), audience);
  throw redirect(`/admin/lettres/${id}?ok=created`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Nouvelle lettre | Administration' }, { name: 'robots', content: 'noindex' }];

export default function NewLetter({ loaderData, actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Nouvelle lettre</h1>
      {Object.keys(errors).length > 0 && <Notice tone="error" title="La lettre n’a pas été enregistrée">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-6">
        <LetterFields errors={errors} segments={loaderData.segments} />
        <FormActions submitLabel="Enregistrer le brouillon" cancelTo="/admin/lettres" />
      </Form>
    </div>
  );
}
