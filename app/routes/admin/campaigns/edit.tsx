import { data } from 'react-router';
import type { Route } from './+types/edit';
import { CAMPAIGN_STATUSES, CAMPAIGN_STATUS_LABELS, type CampaignInput } from '~/domain/campaigns/campaigns';
import { CAMPAIGN_TYPE, campaignProblem, campaignSnapshot, getCampaign, saveCampaign } from '~/domain/campaigns/campaigns.server';
import { campaignEditable } from '~/domain/campaigns/editable.server';
import { AMOUNT_SLOTS, campaignFormValues, campaignInputOf, campaignSchema } from '~/domain/campaigns/schema';
import { inLang } from '~/domain/content/forms';
import { listActiveProjects } from '~/domain/projects/projects.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave } from '~/ui/admin/editorial';
import { afterSave, discardAction, editorialAction, editorialState, lastChange } from '../editorial/editorial.server';
import { conflict, failed, readForm, saved } from '../content/form.server';

const LIST = '/admin/campaigns';
const notFound = () => data('Campagne introuvable', { status: 404 });

const PROBLEMS = {
  slugTaken: { slug: 'Cette adresse est déjà celle d’une autre campagne : choisissez-en une autre.' },
  unknownProject: { projectId: 'Ce projet n’existe plus : choisissez-en un autre.' },
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'campaigns' });
  const projects = (await listActiveProjects(db(), 'fr')).map((p) => ({ id: p.id, title: p.title }));
  if (!params.id) return { isNew: true, version: undefined, projects, values: { status: 'draft' } as Record<string, string>, editorial: null };
  const c = await getCampaign(db(), params.id);
  if (!c) throw notFound();
  const editorial = await editorialState(request, me, campaignEditable, params.id, { version: c.version, snapshot: campaignSnapshot(c) });
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const shown = (editorial.draft?.snapshot ?? campaignSnapshot(c)) as unknown as CampaignInput;
  const values = editorial.restoredCopy ?? campaignFormValues(shown);
  return { isNew: false, version: c.version, projects, values, editorial: { ...editorial.view, published: c.status !== 'draft' } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'campaigns' });
  const form = await readForm(request, campaignSchema);
  if (params.id && form.values.intent === 'discard') return discardAction(me, campaignEditable, params.id, form.values);
  if ('failure' in form) return form.failure;
  const input = campaignInputOf(form.data);
  // A draft is checked as a save would be: its address must stay free, its project must exist.
  const problem = await campaignProblem(db(), params.id ?? null, input);
  if (problem) return failed(400, PROBLEMS[problem], form.values);
  if (!params.id) {
    const result = await saveCampaign(db(), actorOf(me), null, input);
    if ('error' in result) return result.error === 'slugTaken' || result.error === 'unknownProject' ? failed(400, PROBLEMS[result.error], form.values) : conflict(form.values);
    await contentChanged();
    return saved('Campagne ajoutée !', result.campaign.translations.fr.title);
  }
  const live = await getCampaign(db(), params.id);
  if (!live) throw notFound();
  const published = live.status !== 'draft';
  // "Publier" with the status set back to "Brouillon" withdraws a published campaign: saved in place.
  const withdraw = published && input.status === 'draft' && form.values.intent === 'publish';
  if (!withdraw) {
    const outcome = await editorialAction(me, campaignEditable, params.id, form, { ...input }, published);
    if (outcome !== 'save') return outcome;
  }
  // A campaign still in "Brouillon" is saved in place (visitors do not see it either way).
  const result = await saveCampaign(db(), actorOf(me), params.id, input, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    if (result.error === 'conflict') return conflict(form.values, await lastChange({ type: CAMPAIGN_TYPE, id: params.id }));
    return failed(400, PROBLEMS[result.error], form.values);
  }
  await afterSave(me, { type: CAMPAIGN_TYPE, id: params.id }, result.campaign.version);
  await contentChanged();
  if (withdraw) return saved('Campagne retirée du site', `${result.campaign.translations.fr.title} : les visiteurs ne la voient plus.`);
  return saved('Campagne modifiée !', result.campaign.translations.fr.title);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter une campagne' : 'Modifier une campagne'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function CampaignEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version, projects, editorial } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  const autosave = useAutosave({ url: `${LIST}/${editorial?.id ?? ''}/autosave`, initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter une campagne' : 'Modifier la campagne'}</h1>
      <SavedNotice actionData={actionData} to={LIST} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={campaignSchema}
        errors={actionData?.errors}
        version={version}
        submitLabel={isNew ? 'Ajouter la campagne' : 'Enregistrer'}
        cancelTo={LIST}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={LIST} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
        {(errors) => (
          <>
            <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2">
              <legend className="px-1 font-semibold text-gray-900">Informations</legend>
              <div className="sm:col-span-2">
                <ImageField name="image" label="Image de couverture" defaultValue={v.image} error={errors.image} />
              </div>
              <Field name="slug" label="Adresse (/campagnes/…)" maxLength={80} defaultValue={v.slug} error={errors.slug} hint="Lettres minuscules, chiffres et tirets. Vide : faite à partir du titre en français." />
              <div>
                <label htmlFor="status" className="block text-sm font-medium text-gray-900">
                  Statut
                </label>
                <select id="status" name="status" defaultValue={v.status ?? 'draft'} aria-describedby={editorial?.published ? 'status-hint' : undefined} className={inputClass(Boolean(errors.status))}>
                  {CAMPAIGN_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {CAMPAIGN_STATUS_LABELS[s]}
                    </option>
                  ))}
                </select>
                {editorial?.published && (
                  <p id="status-hint" className="mt-1 text-sm text-gray-600">
                    « Brouillon » puis « Publier » retire la campagne du site.
                  </p>
                )}
              </div>
              <Field name="goal" label="Objectif (€)" inputMode="decimal" maxLength={12} defaultValue={v.goal} error={errors.goal} hint="Facultatif." />
              <div>
                <label htmlFor="projectId" className="block text-sm font-medium text-gray-900">
                  Projet lié
                </label>
                <select id="projectId" name="projectId" defaultValue={v.projectId ?? ''} aria-invalid={errors.projectId ? true : undefined} aria-describedby={errors.projectId ? 'projectId-error' : undefined} className={inputClass(Boolean(errors.projectId))}>
                  <option value="">Aucun</option>
                  {projects.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.title}
                    </option>
                  ))}
                </select>
                {errors.projectId && (
                  <p id="projectId-error" className="mt-1 text-sm text-red-800">
                    {errors.projectId}
                  </p>
                )}
              </div>
              <Field name="startsOn" label="Début" type="date" defaultValue={v.startsOn} error={errors.startsOn} hint="Facultatif." />
              <Field name="endsOn" label="Fin" type="date" defaultValue={v.endsOn} error={errors.endsOn} hint="Facultatif. Après cette date, la campagne ne reçoit plus de dons." />
            </fieldset>
            <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-4">
              <legend className="px-1 font-semibold text-gray-900">Montants suggérés (€)</legend>
              <p className="text-sm text-gray-700 sm:col-span-4">Ils remplacent les montants proposés du formulaire de don pour cette campagne. L’impact de chacun se saisit dans chaque langue, plus bas.</p>
              {AMOUNT_SLOTS.map((i) => (
                <Field key={i} name={`amount${i}`} label={`Montant ${i}`} inputMode="decimal" maxLength={12} defaultValue={v[`amount${i}`]} error={errors[`amount${i}`]} />
              ))}
            </fieldset>
            <LanguageTabs errors={errors}>
              {(lang) => (
                <>
                  <Field name={`${lang}.title`} id={`${lang}-title`} label={inLang('Titre *', lang)} required maxLength={300} defaultValue={v[`${lang}.title`]} error={errors[`${lang}.title`]} />
                  <Field name={`${lang}.summary`} id={`${lang}-summary`} label={inLang('Description courte', lang)} maxLength={500} defaultValue={v[`${lang}.summary`]} error={errors[`${lang}.summary`]} />
                  <RichTextField name={`${lang}.story`} label={inLang('Récit', lang)} defaultValue={v[`${lang}.story`]} error={errors[`${lang}.story`]} />
                  {AMOUNT_SLOTS.map((i) => (
                    <Field key={i} name={`${lang}.impact${i}`} id={`${lang}-impact${i}`} label={inLang(`Impact du montant ${i}`, lang)} maxLength={200} placeholder="25 € = un kit scolaire" defaultValue={v[`${lang}.impact${i}`]} error={errors[`${lang}.impact${i}`]} />
                  ))}
                </>
              )}
            </LanguageTabs>
          </>
        )}
      </ContentForm>
    </div>
  );
}
