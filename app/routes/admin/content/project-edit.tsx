import { data } from 'react-router';
import type { Route } from './+types/project-edit';
import { inLang, today } from '~/domain/content/forms';
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES, type ProjectInput } from '~/domain/projects/projects';
import { PROJECT_TYPE, createProject, getProject, projectSnapshot, updateProject } from '~/domain/projects/projects.server';
import { projectEditable } from '~/domain/projects/editable.server';
import { projectFormValues, projectInputOf, projectSchema } from '~/domain/projects/schema';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave } from '~/ui/admin/editorial';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { afterSave, discardAction, editorialAction, editorialState, lastChange } from '../editorial/editorial.server';
import { conflict, readForm, saved } from './form.server';

const LIST = '/admin/actions';
const notFound = () => data('Projet introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'actions' });
  if (!params.id) {
    return { isNew: true, version: undefined, values: { date: today(), status: DEFAULT_PROJECT_STATUS, active: 'on' } as Record<string, string>, editorial: null };
  }
  const p = await getProject(db(), params.id);
  if (!p) throw notFound();
  const editorial = await editorialState(request, me, projectEditable, params.id, { version: p.version, snapshot: projectSnapshot(p) });
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const shown = (editorial.draft?.snapshot ?? projectSnapshot(p)) as unknown as ProjectInput;
  const values = editorial.restoredCopy ?? projectFormValues(shown);
  return { isNew: false, version: p.version, values, editorial: { ...editorial.view, published: p.active } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'actions' });
  const form = await readForm(request, projectSchema);
  if (params.id && form.values.intent === 'discard') return discardAction(me, projectEditable, params.id, form.values);
  if ('failure' in form) return form.failure;
  const input = projectInputOf(form.data);
  if (!params.id) {
    const project = await createProject(db(), actorOf(me), input);
    await contentChanged();
    return saved('Projet ajouté !', project.translations.fr.title);
  }
  const live = await getProject(db(), params.id);
  if (!live) throw notFound();
  // Whether visitors see it is not this form's: "Publier" shows it, the list's switch shows or hides it.
  const kept = { ...input, active: live.active };
  const outcome = await editorialAction(me, projectEditable, params.id, form, { ...kept }, live.active);
  if (outcome !== 'save') return outcome;
  // A project not shown on the site is saved in place (visitors do not see it either way).
  const result = await updateProject(db(), actorOf(me), params.id, kept, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    return conflict(form.values, await lastChange({ type: PROJECT_TYPE, id: params.id }));
  }
  await afterSave(me, { type: PROJECT_TYPE, id: params.id }, result.project.version);
  await contentChanged();
  return saved('Projet modifié !', result.project.translations.fr.title);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter un projet' : 'Modifier un projet'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function ProjectEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version, editorial } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  const autosave = useAutosave({ url: `${LIST}/${editorial?.id ?? ''}/autosave`, initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter un projet' : 'Modifier le projet'}</h1>
      <SavedNotice actionData={actionData} to={LIST} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={projectSchema}
        errors={actionData?.errors}
        version={version}
        submitLabel={isNew ? 'Ajouter le projet' : 'Enregistrer'}
        cancelTo={LIST}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={LIST} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
        {(errors) => (
          <>
            <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2">
              <legend className="px-1 font-semibold text-gray-900">Informations</legend>
              <div className="sm:col-span-2">
                <ImageField name="image" label="Image *" defaultValue={v.image} error={errors.image} />
              </div>
              <Field name="date" label="Date *" type="date" required defaultValue={v.date} error={errors.date} />
              <Field name="location" label="Lieu *" required maxLength={300} defaultValue={v.location} error={errors.location} />
              <div>
                <label htmlFor="status" className="block text-sm font-medium text-gray-900">
                  Statut
                </label>
                <select id="status" name="status" defaultValue={v.status ?? DEFAULT_PROJECT_STATUS} className={inputClass(Boolean(errors.status))}>
                  {PROJECT_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
              {editorial ? (
                <p className="self-end pb-2 text-sm text-gray-800">
                  {editorial.published ? 'Visible sur le site. Pour le retirer : interrupteur « Visible » de la liste des projets.' : 'Pas visible sur le site : « Publier » l’y affiche.'}
                </p>
              ) : (
                <div className="flex items-center gap-3 self-end pb-2">
                  <input id="active" name="active" type="checkbox" defaultChecked={v.active === 'on'} className="h-5 w-5" />
                  <label htmlFor="active" className="font-medium text-gray-900">
                    Actif (visible sur le site)
                  </label>
                </div>
              )}
            </fieldset>
            <LanguageTabs errors={errors}>
              {(lang) => (
                <>
                  <Field name={`${lang}.title`} id={`${lang}-title`} label={inLang('Titre *', lang)} required maxLength={300} defaultValue={v[`${lang}.title`]} error={errors[`${lang}.title`]} />
                  <RichTextField name={`${lang}.description`} label={inLang('Description', lang)} defaultValue={v[`${lang}.description`]} error={errors[`${lang}.description`]} />
                </>
              )}
            </LanguageTabs>
          </>
        )}
      </ContentForm>
    </div>
  );
}
