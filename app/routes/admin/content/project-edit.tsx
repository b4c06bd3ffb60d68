import { data } from 'react-router';
import type { Route } from './+types/project-edit';
import { flattenTranslations, inLang, today, translationsOf } from '~/domain/content/forms';
import { DEFAULT_PROJECT_STATUS, PROJECT_STATUSES, type ProjectTranslation } from '~/domain/projects/projects';
import { createProject, getProject, updateProject, type ProjectInput } from '~/domain/projects/projects.server';
import { PROJECT_TEXT_KEYS, projectSchema } from '~/domain/projects/schema';
import { actorOf, requireUser } from '~/lib/auth.server';
import type { Lang } from '~/lib/i18n';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { HistoryLink } from '~/ui/admin/editorial';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { conflict, readForm, saved } from './form.server';

const LIST = '/admin/actions';
const notFound = () => data('Projet introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'actions' });
  if (!params.id) {
    return { isNew: true, version: undefined, values: { date: today(), status: DEFAULT_PROJECT_STATUS, active: 'on' } as Record<string, string> };
  }
  const p = await getProject(db(), params.id);
  if (!p) throw notFound();
  return {
    isNew: false,
    version: p.version,
    values: { image: p.image, date: p.date, location: p.location, status: p.status, active: p.active ? 'on' : '', ...flattenTranslations(p.translations as unknown as Record<Lang, Record<string, string>>, PROJECT_TEXT_KEYS) },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'actions' });
  const form = await readForm(request, projectSchema);
  if ('failure' in form) return form.failure;
  const d = form.data;
  const input: ProjectInput = {
    image: d.image,
    date: d.date,
    location: d.location,
    status: d.status,
    active: d.active,
    translations: translationsOf(d, PROJECT_TEXT_KEYS) as Record<Lang, ProjectTranslation>,
  };
  if (!params.id) {
    const project = await createProject(db(), actorOf(me), input);
    await contentChanged();
    return saved('Projet ajouté !', project.translations.fr.title);
  }
  const result = await updateProject(db(), actorOf(me), params.id, input, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    return conflict(form.values);
  }
  await contentChanged();
  return saved('Projet modifié !', result.project.translations.fr.title);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter un projet' : 'Modifier un projet'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function ProjectEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter un projet' : 'Modifier le projet'}</h1>
      <HistoryLink list={LIST} />
      <SavedNotice actionData={actionData} to={LIST} />
      <ContentForm schema={projectSchema} errors={actionData?.errors} version={version} submitLabel={isNew ? 'Ajouter le projet' : 'Enregistrer'} cancelTo={LIST}>
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
              <div className="flex items-center gap-3 self-end pb-2">
                <input id="active" name="active" type="checkbox" defaultChecked={v.active === 'on'} className="h-5 w-5" />
                <label htmlFor="active" className="font-medium text-gray-900">
                  Actif (visible sur le site)
                </label>
              </div>
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
