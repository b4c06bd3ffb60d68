import { Form, Link, data } from 'react-router';
import type { Route } from './+types/chart';
import { ACCOUNT_KEYS, ACCOUNT_ROLES, accountingSettingsSchema, formSettings, JOURNAL_KEYS, JOURNAL_ROLES, type AccountingSettings } from '~/domain/accounting/chart';
import { getAccountingSettings, saveAccountingSettings } from '~/domain/accounting/settings.server';
import { MONTHS } from '~/domain/fiscal-year/fiscal-year';
import { PROVIDERS, PROVIDER_TITLES } from '~/domain/means/providers/names';
import { fixFieldsToast, formError, issueErrors } from '~/lib/form-errors.server';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { Field, Notice, primaryButton, SelectField } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';


/** The form's flat values for a settings document ("accounts.gifts.num" …). */
function formValues(s: AccountingSettings): Record<string, string> {
  const v: Record<string, string> = { siren: s.siren, fiscalStartMonth: String(s.fiscalStartMonth) };
  for (const k of JOURNAL_KEYS) Object.assign(v, { [`journals.${k}.code`]: s.journals[k].code, [`journals.${k}.label`]: s.journals[k].label });
  for (const k of ACCOUNT_KEYS) Object.assign(v, { [`accounts.${k}.num`]: s.accounts[k].num, [`accounts.${k}.label`]: s.accounts[k].label });
  for (const p of PROVIDERS) Object.assign(v, { [`providers.${p}.num`]: s.providers[p].num, [`providers.${p}.label`]: s.providers[p].label });
  return v;
}

/** The chart of accounts, the journals, the fiscal year's first month and the SIREN (ADR 034). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'accounting' });
  const { version, ...settings } = await getAccountingSettings(runtime().db);
  return { version, values: formValues(settings) };
}

const CONFLICT = 'Le plan comptable a été modifié entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'accounting' });
  const form = await request.formData();
  const raw = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  const version = Number(raw.version);
  const conflict = () => data({ errors: { form: CONFLICT } as Record<string, string>, values: raw, toast: null }, { status: 409 });
  if (!Number.isInteger(version) || version < 0) return conflict();
  const parsed = accountingSettingsSchema.safeParse(formSettings(Object.entries(raw).filter(([k]) => k !== 'version')));
  if (!parsed.success) return formError({ errors: issueErrors(parsed.error.issues), values: raw, toast: fixFieldsToast('Plan comptable non enregistré') });
  if ((await saveAccountingSettings(runtime().db, actorOf(me), parsed.data, version)) !== 'ok') return conflict();
  return { errors: {} as Record<string, string>, values: null, toast: { title: 'Plan comptable enregistré !', variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Plan comptable | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ChartScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { version } = loaderData;
  const errors = actionData?.errors ?? {};
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  useToast(actionData?.toast);
  const savedVersion = actionData?.toast ? version : Number(v.version ?? version);
  const pair = (prefix: string, role: string, first: 'num' | 'code') => (
    <div key={prefix} className="grid gap-3 sm:grid-cols-[1fr_2fr]">
      <Field name={`${prefix}.${first}`} label={`${role} : ${first === 'num' ? 'compte' : 'code'}`} defaultValue={v[`${prefix}.${first}`] ?? ''} error={errors[`${prefix}.${first}`]} maxLength={10} />
      <Field name={`${prefix}.label`} label={`${role} : libellé`} defaultValue={v[`${prefix}.label`] ?? ''} error={errors[`${prefix}.label`]} maxLength={80} />
    </div>
  );
  return (
    <div className="max-w-4xl space-y-6">
      <p>
        <Link to="/admin/comptabilite" className="underline">← Comptabilité</Link>
      </p>
      <h1 className="text-3xl font-bold text-gray-900">Plan comptable</h1>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      {actionData?.toast && <Notice tone="success" title={actionData.toast.title} />}
      <p className="text-gray-700">Par défaut, les comptes du plan comptable des associations et fondations (règlement ANC n° 2018-06). Votre expert-comptable peut les adapter.</p>
      <Form method="post" className="space-y-8" noValidate key={savedVersion}>
        <input type="hidden" name="version" value={version} />
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Exercice</legend>
          <Field name="siren" label="SIREN" inputMode="numeric" maxLength={11} defaultValue={v.siren ?? ''} error={errors.siren} hint="Nomme le fichier FEC. Laissé vide : celui des réglages des reçus fiscaux." />
          <SelectField name="fiscalStartMonth" label="Premier mois de l’exercice" options={MONTHS.map((_, i) => String(i + 1))} labels={Object.fromEntries(MONTHS.map((m, i) => [String(i + 1), m]))} defaultValue={v.fiscalStartMonth ?? '1'} error={errors.fiscalStartMonth} hint="Vaut aussi pour la déclaration des dons (article 222 bis) : ses chiffres et sa date limite suivent l’exercice." />
        </fieldset>
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Journaux</legend>
          {JOURNAL_KEYS.map((k) => pair(`journals.${k}`, JOURNAL_ROLES[k], 'code'))}
        </fieldset>
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Comptes</legend>
          {ACCOUNT_KEYS.map((k) => pair(`accounts.${k}`, ACCOUNT_ROLES[k], 'num'))}
        </fieldset>
        <fieldset className="space-y-4 rounded-lg border border-gray-200 bg-white p-6">
          <legend className="px-1 text-xl font-bold text-gray-900">Soldes des prestataires de paiement</legend>
          {PROVIDERS.map((p) => pair(`providers.${p}`, `Solde ${PROVIDER_TITLES[p]}`, 'num'))}
        </fieldset>
        <button type="submit" className={primaryButton}>Enregistrer</button>
      </Form>
    </div>
  );
}
