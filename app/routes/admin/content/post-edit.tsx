import { data } from 'react-router';
import type { Route } from './+types/post-edit';
import { DEFAULT_AUTHOR, POST_STATUSES, type PostTranslation } from '~/domain/blog/posts';
import { POST_TYPE, createPost, getPost, postSnapshot, updatePost, type PostInput } from '~/domain/blog/posts.server';
import { postEditable } from '~/domain/blog/editable.server';
import { PUBLISHED } from '~/domain/blog/posts';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave } from '~/ui/admin/editorial';
import { afterSave, discardAction, editorialAction, editorialState, lastChange } from '../editorial/editorial.server';
import { POST_TEXT_KEYS, postSchema } from '~/domain/blog/schema';
import { flattenTranslations, inLang, today, translationsOf } from '~/domain/content/forms';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import type { Lang } from '~/lib/i18n';
import { contentChanged, db } from '~/lib/runtime.server';
import { Field, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { conflict, readForm, saved } from './form.server';

const LIST = '/admin/blog';
const notFound = () => data('Article introuvable', { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'blog' });
  if (!params.id) {
    return { isNew: true, version: undefined, values: { author: DEFAULT_AUTHOR, date: today(), status: 'Brouillon' } as Record<string, string>, editorial: null };
  }
  const p = await getPost(db(), params.id);
  if (!p) throw notFound();
  const editorial = await editorialState(request, me, postEditable, params.id, { version: p.version, snapshot: postSnapshot(p) });
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const shown = (editorial.draft?.snapshot ?? postSnapshot(p)) as unknown as PostInput;
  const values = editorial.restoredCopy ?? {
    image: shown.image,
    author: shown.author,
    date: shown.date,
    status: shown.status,
    ...flattenTranslations(shown.translations as unknown as Record<Lang, Record<string, string>>, POST_TEXT_KEYS),
  };
  return { isNew: false, version: p.version, values, editorial: { ...editorial.view, published: p.status === PUBLISHED } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'blog' });
  const form = await readForm(request, postSchema);
  if (params.id && form.values.intent === 'discard') return discardAction(me, postEditable, params.id, form.values);
  if ('failure' in form) return form.failure;
  const d = form.data;
  const input: PostInput = { image: d.image, author: d.author, date: d.date, status: d.status, translations: translationsOf(d, POST_TEXT_KEYS) as Record<Lang, PostTranslation> };
  if (!params.id) {
    const post = await createPost(db(), actorOf(me), input);
    await contentChanged();
    return saved('Article ajouté !', post.translations.fr.title);
  }
  const live = await getPost(db(), params.id);
  if (!live) throw notFound();
  const outcome = await editorialAction(me, postEditable, params.id, form, { ...input }, live.status === PUBLISHED);
  if (outcome !== 'save') return outcome;
  // An unpublished post is saved in place (visitors do not see it either way).
  const result = await updatePost(db(), actorOf(me), params.id, input, form.version);
  if ('error' in result) {
    if (result.error === 'notFound') throw notFound();
    return conflict(form.values, await lastChange({ type: POST_TYPE, id: params.id }));
  }
  await afterSave(me, { type: POST_TYPE, id: params.id }, result.post.version);
  await contentChanged();
  return saved('Article modifié !', result.post.translations.fr.title);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.isNew ? 'Ajouter un article' : 'Modifier un article'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function PostEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew, version, editorial } = loaderData;
  useSavedRedirect(actionData, LIST);
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  const autosave = useAutosave({ url: `${LIST}/${editorial?.id ?? ''}/autosave`, initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{isNew ? 'Ajouter un article' : "Modifier l'article"}</h1>
      <SavedNotice actionData={actionData} to={LIST} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={postSchema}
        errors={actionData?.errors}
        version={version}
        submitLabel={isNew ? "Ajouter l'article" : 'Enregistrer'}
        cancelTo={LIST}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={LIST} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
        {(errors) => (
          <>
            <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2">
              <legend className="px-1 font-semibold text-gray-900">Informations</legend>
              <div className="sm:col-span-2">
                <ImageField name="image" label="Image de couverture *" defaultValue={v.image} error={errors.image} />
              </div>
              <Field name="author" label="Auteur *" required maxLength={300} defaultValue={v.author} error={errors.author} />
              <Field name="date" label="Date *" type="date" required defaultValue={v.date} error={errors.date} />
              <div>
                <label htmlFor="status" className="block text-sm font-medium text-gray-900">
                  Statut
                </label>
                <select id="status" name="status" defaultValue={v.status ?? 'Brouillon'} className={inputClass(Boolean(errors.status))}>
                  {POST_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
            </fieldset>
            <LanguageTabs errors={errors}>
              {(lang) => (
                <>
                  <Field name={`${lang}.category`} id={`${lang}-category`} label={inLang('Catégorie *', lang)} required maxLength={300} defaultValue={v[`${lang}.category`]} error={errors[`${lang}.category`]} />
                  <Field name={`${lang}.title`} id={`${lang}-title`} label={inLang('Titre *', lang)} required maxLength={300} defaultValue={v[`${lang}.title`]} error={errors[`${lang}.title`]} />
                  <ExcerptField lang={lang} defaultValue={v[`${lang}.excerpt`]} error={errors[`${lang}.excerpt`]} />
                  <RichTextField name={`${lang}.content`} label={inLang('Contenu', lang)} defaultValue={v[`${lang}.content`]} error={errors[`${lang}.content`]} />
                </>
              )}
            </LanguageTabs>
          </>
        )}
      </ContentForm>
    </div>
  );
}

function ExcerptField({ lang, defaultValue, error }: { lang: Lang; defaultValue?: string; error?: string }) {
  const id = `${lang}-excerpt`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {inLang('Extrait *', lang)}
      </label>
      <textarea
        id={id}
        name={`${lang}.excerpt`}
        rows={3}
        required
        maxLength={1000}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(Boolean(error))}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
