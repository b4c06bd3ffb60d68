import type { Route } from './+types/project-edit';
import { inLang, today } from '~/domain/content/forms';
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES, type Project, type ProjectInput } from '~/domain/projects/projects';
import { createProject, updateProject } from '~/domain/projects/projects.server';
import { projectEditable } from '~/domain/projects/editable.server';
import { projectFormValues, projectInputOf, projectSchema, type ProjectForm } from '~/domain/projects/schema';
import { db } from '~/lib/runtime.server';
import { EditorPage, InfoFields, editorMeta } from '~/ui/admin/EditorPage';
import { Field, SelectField } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { LanguageTabs, RichTextField } from '~/ui/admin/content';
import { editorAction, editorLoader, type EditorSpec } from '../editorial/editor.server';

const LIST = '/admin/actions';
/** A write's answer as the editor helper takes it: the project's French title and version, or why not. */
const outcome = (r: { project: Project } | { error: string }) => ('error' in r ? r : { title: r.project.translations.fr.title, version: r.project.version });

/** A project in its editor: the rest of the loader and action is the editors' (editor.server.ts). */
const PROJECT: EditorSpec<ProjectForm, ProjectInput> = {
  ed: projectEditable,
  schema: projectSchema,
  missing: 'Projet introuvable',
  blank: () => ({ date: today(), status: DEFAULT_PROJECT_STATUS, active: 'on' }),
  valuesOf: (snapshot) => projectFormValues(snapshot as unknown as ProjectInput),
  inputOf: projectInputOf,
  // Whether visitors see it is not this form's: "Publier" shows it, the list's switch shows or hides it.
  keep: (input, live) => ({ ...input, active: live.published }),
  create: { toast: 'Projet ajouté !', write: async (actor, input) => outcome({ project: await createProject(db(), actor, input) }) },
  // A project not shown on the site is saved in place (visitors do not see it either way).
  update: { toast: 'Projet modifié !', write: async (actor, id, input, version) => outcome(await updateProject(db(), actor, id, input, version)) },
};

export const loader = (args: Route.LoaderArgs) => editorLoader(args, PROJECT);
export const action = (args: Route.ActionArgs) => editorAction(args, PROJECT);

export const meta: Route.MetaFunction = editorMeta('Ajouter un projet', 'Modifier un projet');

export default function ProjectEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, editorial } = loaderData;
  return (
    <EditorPage title={isNew ? 'Ajouter un projet' : 'Modifier le projet'} list={LIST} schema={projectSchema} submitLabel={isNew ? 'Ajouter le projet' : 'Enregistrer'} loaderData={loaderData} actionData={actionData}>
      {(errors, v) => (
        <>
          <InfoFields image={<ImageField name="image" label="Image *" defaultValue={v.image} error={errors.image} />}>
            <Field name="date" label="Date *" type="date" required defaultValue={v.date} error={errors.date} />
            <Field name="location" label="Lieu *" required maxLength={300} defaultValue={v.location} error={errors.location} />
            <SelectField name="status" label="Statut" options={PROJECT_STATUSES} defaultValue={v.status ?? DEFAULT_PROJECT_STATUS} error={errors.status} />
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
          </InfoFields>
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
    </EditorPage>
  );
}
