import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-rate';
import { rateSchema } from '~/domain/letters/letter';
import { saveSendingRate, sendingRate } from '~/domain/letters/letters.server';
import { db } from '~/lib/runtime.server';
import { firstKey, formError, issueErrors } from '~/lib/form-errors.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { Field, FormActions, Notice } from '~/ui/admin/Field';

/** /admin/lettres/rythme (Admin): how fast letters leave, shared by every instance (ADR 022). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  return { rate: await sendingRate(db()), saved: new URL(request.url).searchParams.get('ok') === '1' };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const form = await request.formData();
  const values = { perSecond: String(form.get('perSecond') ?? ''), perHour: String(form.get('perHour') ?? '') };
  const parsed = rateSchema.safeParse(values);
  if (!parsed.success) {
    return formError({ values, errors: issueErrors(parsed.error.issues, firstKey) });
  }
  await saveSendingRate(db(), actorOf(user), parsed.data);
  throw redirect('/admin/lettres/rythme?ok=1', 303);
}

export const meta: Route.MetaFunction = () => [{ title: 'Rythme d’envoi des lettres | Administration' }, { name: 'robots', content: 'noindex' }];

export default function RateScreen({ loaderData, actionData }: Route.ComponentProps) {
  const values = actionData?.values ?? { perSecond: String(loaderData.rate.perSecond), perHour: String(loaderData.rate.perHour) };
  const errors = actionData?.errors ?? {};
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Rythme d’envoi des lettres</h1>
      <p className="text-gray-700">Les fournisseurs d’envoi limitent le nombre de courriels par seconde et par heure : réglez ici ce que le vôtre accepte. Toutes les instances du site partagent ce rythme.</p>
      {loaderData.saved && !actionData && <Notice tone="success" title="Rythme enregistré." />}
      {Object.keys(errors).length > 0 && <Notice tone="error" title="Le rythme n’a pas été enregistré">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-4">
        <Field name="perSecond" label="Courriels par seconde" type="number" min={1} max={500} required defaultValue={values.perSecond} error={errors.perSecond} />
        <Field name="perHour" label="Courriels par heure" type="number" min={1} max={1000000} required defaultValue={values.perHour} error={errors.perHour} />
        <FormActions submitLabel="Enregistrer" cancelTo="/admin/lettres" />
      </Form>
    </div>
  );
}
