import type { Route } from './+types/edit';
import { CAMPAIGN_STATUSES, CAMPAIGN_STATUS_LABELS, type CampaignInput } from '~/domain/campaigns/campaigns';
import { campaignProblem, saveCampaign } from '~/domain/campaigns/campaigns.server';
import { campaignEditable } from '~/domain/campaigns/editable.server';
import { AMOUNT_SLOTS, campaignFormValues, campaignInputOf, campaignSchema, type CampaignForm } from '~/domain/campaigns/schema';
import { inLang } from '~/domain/content/forms';
import { listActiveProjects } from '~/domain/projects/projects.server';
import type { Actor } from '~/domain/audit/audit.server';
import { db } from '~/lib/runtime.server';
import { EditorPage, InfoFields, editorMeta } from '~/ui/admin/EditorPage';
import { Field, SelectField } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { LanguageTabs, RichTextField } from '~/ui/admin/content';
import { editorAction, editorLoader, type EditorSpec } from '../editorial/editor.server';

const LIST = '/admin/campaigns';

/** Writes a campaign (a new one when `id` is null): its title and version, or why not. */
async function write(actor: Actor, id: string | null, input: CampaignInput, version?: number) {
  const result = await saveCampaign(db(), actor, id, input, version);
  return 'error' in result ? result : { title: result.campaign.translations.fr.title, version: result.campaign.version };
}

/** A campaign in its editor: the rest of the loader and action is the editors' (editor.server.ts). */
const CAMPAIGN: EditorSpec<CampaignForm, CampaignInput> = {
  ed: campaignEditable,
  schema: campaignSchema,
  missing: 'Campagne introuvable',
  blank: () => ({ status: 'draft' }),
  valuesOf: (snapshot) => campaignFormValues(snapshot as unknown as CampaignInput),
  inputOf: campaignInputOf,
  // A draft is checked as a save would be: its address must stay free, its project must exist.
  check: (id, input) => campaignProblem(db(), id, input),
  problems: {
    slugTaken: { slug: 'Cette adresse est déjà celle d’une autre campagne : choisissez-en une autre.' },
    unknownProject: { projectId: 'Ce projet n’existe plus : choisissez-en un autre.' },
  },
  create: { toast: 'Campagne ajoutée !', write: (actor, input) => write(actor, null, input) },
  // A campaign still in "Brouillon" is saved in place (visitors do not see it either way).
  update: { toast: 'Campagne modifiée !', write },
  // "Publier" with the status set back to "Brouillon" withdraws a published campaign: saved in place.
  withdraw: { when: (input) => input.status === 'draft', toast: 'Campagne retirée du site', description: (title) => `${title} : les visiteurs ne la voient plus.` },
};

export async function loader(args: Route.LoaderArgs) {
  const editor = await editorLoader(args, CAMPAIGN);
  const projects = (await listActiveProjects(db(), 'fr')).map((p) => ({ id: p.id, title: p.title }));
  return { ...editor, projects };
}

export const action = (args: Route.ActionArgs) => editorAction(args, CAMPAIGN);

export const meta: Route.MetaFunction = editorMeta('Ajouter une campagne', 'Modifier une campagne');

export default function CampaignEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, projects, editorial } = loaderData;
  return (
    <EditorPage title={isNew ? 'Ajouter une campagne' : 'Modifier la campagne'} list={LIST} schema={campaignSchema} submitLabel={isNew ? 'Ajouter la campagne' : 'Enregistrer'} loaderData={loaderData} actionData={actionData}>
      {(errors, v) => (
        <>
          <InfoFields image={<ImageField name="image" label="Image de couverture" defaultValue={v.image} error={errors.image} />}>
            <Field name="slug" label="Adresse (/campagnes/…)" maxLength={80} defaultValue={v.slug} error={errors.slug} hint="Lettres minuscules, chiffres et tirets. Vide : faite à partir du titre en français." />
            <SelectField
              name="status"
              label="Statut"
              options={CAMPAIGN_STATUSES}
              labels={CAMPAIGN_STATUS_LABELS}
              defaultValue={v.status ?? 'draft'}
              error={errors.status}
              hint={editorial?.published ? '« Brouillon » puis « Publier » retire la campagne du site.' : undefined}
            />
            <Field name="goal" label="Objectif (€)" inputMode="decimal" maxLength={12} defaultValue={v.goal} error={errors.goal} hint="Facultatif." />
            <SelectField name="projectId" label="Projet lié" empty="Aucun" options={projects.map((p) => p.id)} labels={Object.fromEntries(projects.map((p) => [p.id, p.title]))} defaultValue={v.projectId ?? ''} error={errors.projectId} />
            <Field name="startsOn" label="Début" type="date" defaultValue={v.startsOn} error={errors.startsOn} hint="Facultatif." />
            <Field name="endsOn" label="Fin" type="date" defaultValue={v.endsOn} error={errors.endsOn} hint="Facultatif. Après cette date, la campagne ne reçoit plus de dons." />
          </InfoFields>
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
    </EditorPage>
  );
}
