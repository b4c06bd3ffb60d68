import { data } from 'react-router';
import type { Route } from './+types/edit';
import { CAMPAIGN_STATUSES, CAMPAIGN_STATUS_LABELS, type CampaignTranslation } from '~/domain/campaigns/campaigns';
import { getCampaign, saveCampaign, type CampaignInput } from '~/domain/campaigns/campaigns.server';
import { AMOUNT_SLOTS, CAMPAIGN_TEXT_KEYS, campaignSchema } from '~/domain/campaigns/schema';
import { flattenTranslations, inLang, translationsOf } from '~/domain/content/forms';
import { parseEuroAmount, toDecimalString } from '~/domain/donations/money';
import { listActiveProjects } from '~/domain/projects/projects.server';
import { actorOf, requireUser } from '~/lib/auth.server';
import { LANGS, type Lang } from '~/lib/i18n';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { HistoryLink } from '~/ui/admin/editorial';
import { conflict, failed, readForm, saved } from '../content/form.server';

const LIST = '/admin/campaigns';
const notFound = () => data('Campagne introuvable', { status: 404 });
const euros = (cents: number | null) => (cents === null ? '' : toDecimalString(cents, 'EUR'));
const cents = (v: string) => {
  const a = parseEuroAmount(v);
  return a.ok ? a.cents : null;
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'campaigns' });
  const projects = (await listActiveProjects(db(), 'fr')).map((p) => ({ id: p.id, title: p.title }));
  if (!params.id) return { isNew: true, version: undefined, projects, values: { status: 'draft' } as Record<string, string> };
  const c = await getCampaign(db(), params.id);
  if (!c) throw notFound();
  const texts = Object.fromEntries(
    LANGS.map((lang) => [lang, { ...c.translations[lang], ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`impact${i}`, c.amounts[i - 1]?.impact[lang] ?? ''])) }]),
  ) as unknown as Record<Lang, Record<string, string>>;
  return {
    isNew: false,
    version: c.version,
    projects,
    values: {
      slug: c.slug,
      status: c.status,
      image: c.image,
      goal: euros(c.goalCents),
      startsOn: c.startsOn ?? '',
      endsOn: c.endsOn ?? '',
      projectId: c.projectId ?? '',
      ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`amount${i}`, euros(c.amounts[i - 1]?.cents ?? null)])),
      ...flattenTranslations(texts, CAMPAIGN_TEXT_KEYS),
    } as Record<string, string>,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'campaigns' });
  const form = await readForm(request, campaignSchema);
  if ('failure' in form) return form.failure;
  const d = form.data as Record<string, string>;
  const texts = translationsOf(d, CAMPAIGN_TEXT_KEYS);
  const input: CampaignInput = {
    slug: d.slug,
    status: form.data.status,
    image: d.image,
    goalCents: cents(d.goal),
    startsOn: d.startsOn || null,
    endsOn: d.endsOn || null,
    projectId: d.projectId || null,
    translations: Object.fromEntries(LANGS.map((l) => [l, { title: texts[l].title, summary: texts[l].summary, story: texts[l].story }])) as Record<Lang, CampaignTranslation>,
    amounts: AMOUNT_SLOTS.flatMap((i) => {
      const c = cents(d[`amount${i}`]);
      return c === null ? [] : [{ cents: c, impact: Object.fromEntries(LANGS.map((l) => [l, texts[l][`impact${i}`]])) as Record<Lang, string> }];
    }),
  };
  const result = await saveCampaign(db(), actorOf(me), params.id ?? null, input, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    if (result.error === 'conflict') return conflict(form.values);
    if (result.error === 'slugTaken') return failed(400, { slug: 'Cette adresse est déjà celle d’une autre campagne : choisissez-en une autre.' }, form.values);
    return failed(400, { projectId: 'Ce projet n’existe plus : choisissez-en un autre.' }, form.values);
  }
  await contentChanged();
  return saved(params.id ? 'Campagne modifiée !' : 'Campagne ajoutée !', result.campaign.translations.fr.title);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter une campagne' : 'Modifier une campagne'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function CampaignEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version, projects } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter une campagne' : 'Modifier la campagne'}</h1>
      <HistoryLink list={LIST} />
      <SavedNotice actionData={actionData} to={LIST} />
      <ContentForm schema={campaignSchema} errors={actionData?.errors} version={version} submitLabel={isNew ? 'Ajouter la campagne' : 'Enregistrer'} cancelTo={LIST}>
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
                <select id="status" name="status" defaultValue={v.status ?? 'draft'} className={inputClass(Boolean(errors.status))}>
                  {CAMPAIGN_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {CAMPAIGN_STATUS_LABELS[s]}
                    </option>
                  ))}
                </select>
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
