import { Form, data, redirect } from 'react-router';
import type { Route } from './+types/admin-type';
import { toDecimalString } from '~/lib/currency';
import { LANGS, membershipTypeSchema, PERIOD_MODEL_LABELS, TAX_DEDUCTIBLE_HINT } from '~/domain/membership/forms';
import { PERIOD_MODELS } from '~/domain/membership/period';
import { createType, getType, updateType } from '~/domain/membership/types.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { formError, issueErrors } from '~/lib/form-errors.server';
import { Field, FormActions, Notice } from '~/ui/admin/Field';
import { MembershipTabs } from '~/ui/admin/membership';
import { notFound } from './admin.server';

const NEW = 'nouveau';
const LANG_NAMES = { fr: 'français', en: 'anglais', es: 'espagnol' } as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'membership-settings' });
  if (params.typeId === NEW) return { isNew: true, values: { period_model: 'anniversary', dues: '' } as Record<string, string> };
  const t = await getType(runtime().db, params.typeId);
  if (!t) notFound();
  const values: Record<string, string> = {
    dues: t.duesCents === 0 ? '0' : toDecimalString(t.duesCents, 'EUR').replace('.', ','),
    period_model: t.rule.model,
    rollover: t.rule.rollover ? t.rule.rollover.split('-').reverse().join('/') : '',
    tax_deductible: t.taxDeductible ? 'on' : '',
  };
  for (const l of LANGS) {
    values[`name_${l}`] = t.translations[l].name;
    values[`description_${l}`] = t.translations[l].description;
  }
  return { isNew: false, values };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'membership-settings' });
  const raw = Object.fromEntries([...(await request.formData()).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const parsed = membershipTypeSchema.safeParse({ ...raw, tax_deductible: raw.tax_deductible ?? '' });
  if (!parsed.success) {
    return formError({ errors: issueErrors(parsed.error.issues), values: raw });
  }
  const db = runtime().db;
  if (params.typeId === NEW) await createType(db, actorOf(me), parsed.data);
  else if (!(await updateType(db, actorOf(me), params.typeId, parsed.data))) notFound();
  return redirect('/admin/adhesions/parametres');
}

export const meta: Route.MetaFunction = () => [{ title: 'Type d’adhésion | Administration' }, { name: 'robots', content: 'noindex' }];

export default function MembershipTypeScreen({ loaderData, actionData }: Route.ComponentProps) {
  const errors: Record<string, string> = actionData?.errors ?? {};
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{loaderData.isNew ? 'Nouveau type d’adhésion' : 'Modifier le type d’adhésion'}</h1>
      <MembershipTabs admin />
      {Object.keys(errors).length > 0 && <Notice tone="error" title="Type non enregistré">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-6 rounded-lg border border-gray-200 bg-white p-6" noValidate>
        {LANGS.map((l) => (
          <fieldset key={l} className="space-y-3">
            <legend className="text-lg font-bold text-gray-900">Texte en {LANG_NAMES[l]}</legend>
            <Field name={`name_${l}`} label="Nom *" defaultValue={v[`name_${l}`]} error={errors[`name_${l}`]} maxLength={80} required lang={l} />
            <Field name={`description_${l}`} label="Description courte" defaultValue={v[`description_${l}`]} error={errors[`description_${l}`]} maxLength={300} lang={l} />
          </fieldset>
        ))}
        <Field name="dues" label="Cotisation annuelle (€) *" inputMode="decimal" defaultValue={v.dues} error={errors.dues} hint="0 pour une adhésion gratuite (membre d’honneur)." maxLength={12} />
        <fieldset>
          <legend className="text-lg font-bold text-gray-900">Période couverte</legend>
          {PERIOD_MODELS.map((m) => (
            <label key={m} className="flex min-h-11 items-center gap-2">
              <input type="radio" name="period_model" value={m} defaultChecked={v.period_model === m} className="h-4 w-4" /> {PERIOD_MODEL_LABELS[m]}
            </label>
          ))}
          {errors.period_model && <p className="mt-1 text-sm text-red-800">{errors.period_model}</p>}
        </fieldset>
        <Field
          name="rollover"
          label="Date de bascule (année civile, JJ/MM)"
          defaultValue={v.rollover}
          error={errors.rollover}
          hint="À partir de ce jour, un nouveau membre est compté jusqu’au 31 décembre de l’année suivante (ex. 01/10). Vide : pas de bascule."
          maxLength={10}
        />
        <div>
          <label className="inline-flex min-h-11 items-center gap-3 font-medium text-gray-900">
            <input type="checkbox" name="tax_deductible" defaultChecked={v.tax_deductible === 'on'} aria-describedby="tax_deductible-hint" className="h-5 w-5" /> La cotisation ouvre droit à un reçu fiscal
          </label>
          <p id="tax_deductible-hint" className="mt-1 text-sm text-gray-600">{TAX_DEDUCTIBLE_HINT}</p>
        </div>
        <FormActions submitLabel="Enregistrer le type" cancelTo="/admin/adhesions/parametres" />
      </Form>
    </div>
  );
}
