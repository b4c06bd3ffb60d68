import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-segment';
import { actorOf } from '~/routes/admin/auth.server';
import { campaignChoices } from '~/domain/campaigns/campaigns.server';
import { MEANS, staffMeansLabel } from '~/domain/means/means';
import { listTags } from '~/domain/people/notes.server';
import { DATE_FIELDS, MONEY_FIELDS, SEGMENT_NAME_MAX, centsToEuros, readSegmentForm, type SegmentRules } from '~/domain/people/segments';
import { getSegment, saveSegment } from '~/domain/people/segments.server';
import { LANGS } from '~/lib/i18n';
import { Field, FormActions, Notice, SelectField, choicesOf } from '~/ui/admin/Field';
import { LANG_NAMES } from '~/ui/admin/letters';
import { PeopleTabs } from '~/ui/admin/people';
import { db, notFound, peopleUser } from './admin.server';

const NEW = 'nouveau';

/** A saved segment's rules read or written (Admin): /admin/donateurs/segments/nouveau, or a saved segment's id. A ready-made segment is not edited. */
async function choices() {
  const [tags, campaigns] = await Promise.all([listTags(db()), campaignChoices(db())]);
  return { tags: tags.map((t) => ({ id: t.id, name: t.name })), campaigns: campaigns.map((c) => ({ id: c.id, name: c.title })) };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await peopleUser(request, context, { admin: true });
  const segment = params.segmentId === NEW ? { id: NEW, name: '', rules: {} as SegmentRules, builtIn: false } : await getSegment(db(), params.segmentId);
  if (!segment || segment.builtIn) notFound();
  return { segment: { id: segment.id, name: segment.name, rules: segment.rules }, ...(await choices()) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await peopleUser(request, context, { admin: true });
  const read = readSegmentForm(await request.formData());
  const { tags, campaigns } = await choices();
  const errors = read.ok ? {} : { ...read.errors };
  if (read.ok && read.rules.tagIds?.some((id) => !tags.some((t) => t.id === id))) Object.assign(errors, { tagIds: 'Une étiquette choisie n’existe plus : choisissez dans la liste.' });
  if (read.ok && read.rules.campaignId && !campaigns.some((c) => c.id === read.rules.campaignId)) Object.assign(errors, { campaignId: 'Choisissez une campagne de la liste.' });
  if (!read.ok || Object.keys(errors).length) return data({ errors: errors as Record<string, string> }, { status: 400 });
  const id = await saveSegment(db(), actorOf(user), params.segmentId === NEW ? null : params.segmentId, read.name, read.rules);
  if (!id) notFound();
  throw redirect(`/admin/donateurs?segment=${id}`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Segment | Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

const YES_NO = { oui: 'Oui', non: 'Non' };
const yesNo = (v: boolean | undefined) => (v === true ? 'oui' : v === false ? 'non' : '');

export default function SegmentForm({ loaderData, actionData }: Route.ComponentProps) {
  const { segment, tags, campaigns } = loaderData;
  const r = segment.rules;
  const errors: Record<string, string> = actionData?.errors ?? {};
  const money = (k: string) => centsToEuros((r as Record<string, number | undefined>)[k]);
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{segment.id === NEW ? 'Nouveau segment' : `Segment « ${segment.name} »`}</h1>
      <PeopleTabs admin />
      {Object.keys(errors).length > 0 && <Notice tone="error" title="Le segment n’a pas été enregistré">Corrigez les champs signalés.</Notice>}
      <Form method="post" className="space-y-6">
        <Field name="name" label="Nom du segment" defaultValue={segment.name} maxLength={SEGMENT_NAME_MAX} required error={errors.name} />
        <p className="text-gray-700">Toutes les conditions remplies doivent l’être ; une condition laissée vide ne filtre rien. Montants en euros, bornes comprises.</p>
        <fieldset className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2">
          <legend className="px-1 font-semibold text-gray-900">Montants et nombre de dons</legend>
          {MONEY_FIELDS.flatMap(([k, label]) => [
            <Field key={`${k}Min`} name={`${k}Min`} label={`${label} : au moins (€)`} defaultValue={money(`${k}Min`)} inputMode="decimal" maxLength={15} error={errors[`${k}Min`]} />,
            <Field key={`${k}Max`} name={`${k}Max`} label={`${label} : au plus (€)`} defaultValue={money(`${k}Max`)} inputMode="decimal" maxLength={15} error={errors[`${k}Max`]} />,
          ])}
          <Field name="giftsMin" label="Nombre de dons : au moins" defaultValue={r.giftsMin ?? ''} inputMode="numeric" maxLength={6} error={errors.giftsMin} />
          <Field name="giftsMax" label="Nombre de dons : au plus" defaultValue={r.giftsMax ?? ''} inputMode="numeric" maxLength={6} error={errors.giftsMax} />
        </fieldset>
        <fieldset className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2">
          <legend className="px-1 font-semibold text-gray-900">Dates</legend>
          {DATE_FIELDS.flatMap(([k, label]) => [
            <Field key={`${k}From`} name={`${k}From`} type="date" label={`${label} : à partir du`} defaultValue={(r as Record<string, string | undefined>)[`${k}From`] ?? ''} error={errors[`${k}From`]} />,
            <Field key={`${k}To`} name={`${k}To`} type="date" label={`${label} : jusqu’au`} defaultValue={(r as Record<string, string | undefined>)[`${k}To`] ?? ''} error={errors[`${k}To`]} />,
          ])}
        </fieldset>
        <fieldset className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2">
          <legend className="px-1 font-semibold text-gray-900">Personnes</legend>
          <SelectField name="monthly" label="Donne chaque mois" options={['oui', 'non']} labels={YES_NO} empty="Peu importe" defaultValue={yesNo(r.monthly)} error={errors.monthly} />
          <SelectField name="subscribed" label="Abonné aux nouvelles" options={['oui', 'non']} labels={YES_NO} empty="Peu importe" defaultValue={yesNo(r.subscribed)} error={errors.subscribed} />
          <SelectField name="campaignId" label="A donné à la campagne" {...choicesOf(campaigns)} empty="Peu importe" defaultValue={r.campaignId ?? ''} error={errors.campaignId} />
          <SelectField name="means" label="A donné par" options={MEANS} labels={Object.fromEntries(MEANS.map((m) => [m, staffMeansLabel(m)]))} empty="Peu importe" defaultValue={r.means ?? ''} error={errors.means} />
          <SelectField name="language" label="Langue (abonnement ou dons)" options={LANGS} labels={LANG_NAMES} empty="Peu importe" defaultValue={r.language ?? ''} error={errors.language} />
        </fieldset>
        <fieldset className="space-y-2 rounded-lg border border-gray-200 bg-white p-4" aria-describedby={errors.tagIds ? 'tagIds-error' : undefined}>
          <legend className="px-1 font-semibold text-gray-900">Étiquettes (au moins une de celles cochées)</legend>
          {tags.length === 0 && <p className="text-gray-700">Aucune étiquette.</p>}
          <div className="flex flex-wrap gap-x-6">
            {tags.map((t) => (
              <label key={t.id} className="inline-flex min-h-11 items-center gap-3 break-all">
                <input type="checkbox" name="tagIds" value={t.id} defaultChecked={r.tagIds?.includes(t.id)} className="h-5 w-5 shrink-0" /> {t.name}
              </label>
            ))}
          </div>
          {errors.tagIds && <p id="tagIds-error" className="text-sm text-red-800">{errors.tagIds}</p>}
        </fieldset>
        <FormActions submitLabel="Enregistrer le segment" cancelTo="/admin/donateurs/segments" />
      </Form>
    </div>
  );
}
