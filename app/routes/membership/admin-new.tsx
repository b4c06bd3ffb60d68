import { Form, data, redirect } from 'react-router';
import type { Route } from './+types/admin-new';
import { LANGS, memberSchema } from '~/domain/membership/forms';
import { createMember } from '~/domain/membership/register.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { Field, FormActions, Notice, inputClass } from '~/ui/admin/Field';
import { MembershipTabs } from '~/ui/admin/membership';
import { membershipContext } from './admin.server';
import { formError, issueErrors } from '~/lib/form-errors.server';

const LANG_LABELS: Record<(typeof LANGS)[number], string> = { fr: 'Français', en: 'English', es: 'Español' };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const { types } = await membershipContext();
  return { types: types.map((t) => ({ id: t.id, name: t.translations.fr.name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const raw = Object.fromEntries([...(await request.formData()).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const parsed = memberSchema.safeParse({ ...raw, exempt: raw.exempt ?? '', news: raw.news ?? '' });
  const { db, types } = await membershipContext();
  const errors: Record<string, string> = parsed.success ? {} : issueErrors(parsed.error.issues);
  if (parsed.success && !types.some((t) => t.id === parsed.data.type_id)) errors.type_id = 'Choisissez un type.';
  if (!parsed.success || Object.keys(errors).length) return formError({ errors, values: raw });
  const { id } = await createMember(db, actorOf(me), parsed.data);
  return redirect(`/admin/adhesions/${id}`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Ajouter un membre | Adhésions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function NewMember({ loaderData, actionData }: Route.ComponentProps) {
  const { types } = loaderData;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const v: Record<string, string> = actionData?.values ?? {};
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Ajouter un membre</h1>
      <MembershipTabs admin />
      <p className="text-gray-700">Pour un bulletin papier ou un membre déjà inscrit. Le membre reste en attente jusqu’à sa première cotisation, sauf s’il est exempté (membre d’honneur).</p>
      {Object.keys(errors).length > 0 && <Notice tone="error" title="Membre non enregistré">Corrigez les champs signalés.</Notice>}
      {types.length === 0 ? (
        <Notice tone="info" title="Aucun type d’adhésion">Créez d’abord un type dans l’onglet Paramètres.</Notice>
      ) : (
        <Form method="post" className="space-y-4 rounded-lg border border-gray-200 bg-white p-6" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="first_name" label="Prénom *" defaultValue={v.first_name} error={errors.first_name} maxLength={80} required autoComplete="off" />
            <Field name="last_name" label="Nom *" defaultValue={v.last_name} error={errors.last_name} maxLength={80} required autoComplete="off" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="email" label="E-mail" type="email" defaultValue={v.email} error={errors.email} maxLength={254} hint="Sans e-mail, les rappels sont listés pour un envoi postal." />
            <Field name="phone" label="Téléphone" type="tel" defaultValue={v.phone} error={errors.phone} maxLength={30} />
          </div>
          <Field name="address" label="Adresse" defaultValue={v.address} error={errors.address} maxLength={200} />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field name="postal_code" label="Code postal" defaultValue={v.postal_code} error={errors.postal_code} maxLength={12} />
            <Field name="city" label="Commune" defaultValue={v.city} error={errors.city} maxLength={80} />
            <Field name="country" label="Pays" defaultValue={v.country ?? 'France'} error={errors.country} maxLength={80} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="type_id" className="block text-sm font-medium text-gray-900">Type *</label>
              <select id="type_id" name="type_id" defaultValue={v.type_id} aria-invalid={errors.type_id ? true : undefined} aria-describedby={errors.type_id ? 'type_id-error' : undefined} className={inputClass(Boolean(errors.type_id))}>
                {types.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
              </select>
              {errors.type_id && <p id="type_id-error" className="mt-1 text-sm text-red-800">{errors.type_id}</p>}
            </div>
            <div>
              <label htmlFor="language" className="block text-sm font-medium text-gray-900">Langue des courriels</label>
              <select id="language" name="language" defaultValue={v.language ?? 'fr'} className={inputClass(Boolean(errors.language))}>
                {LANGS.map((l) => <option key={l} value={l}>{LANG_LABELS[l]}</option>)}
              </select>
            </div>
          </div>
          <label className="inline-flex min-h-11 items-center gap-3 font-medium text-gray-900">
            <input type="checkbox" name="exempt" defaultChecked={v.exempt === 'on'} className="h-5 w-5" /> Membre d’honneur ou exempté de cotisation (sans échéance)
          </label>
          <label className="flex min-h-11 items-center gap-3 font-medium text-gray-900">
            <input type="checkbox" name="news" defaultChecked={v.news === 'on'} className="h-5 w-5" /> Souhaite recevoir les nouvelles de la fondation par courriel (case cochée par le membre sur son bulletin)
          </label>
          <FormActions submitLabel="Enregistrer le membre" cancelTo="/admin/adhesions" />
        </Form>
      )}
    </div>
  );
}
