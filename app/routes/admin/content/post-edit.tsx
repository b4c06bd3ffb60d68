import type { Route } from './+types/post-edit';
import type { z } from 'zod';
import { DEFAULT_AUTHOR, POST_STATUSES, type BlogPost, type PostTranslation } from '~/domain/blog/posts';
import { createPost, updatePost, type PostInput } from '~/domain/blog/posts.server';
import { postEditable } from '~/domain/blog/editable.server';
import { POST_TEXT_KEYS, postSchema } from '~/domain/blog/schema';
import { flattenTranslations, inLang, today, translationsOf } from '~/domain/content/forms';
import type { Lang } from '~/lib/i18n';
import { db } from '~/lib/runtime.server';
import { EditorPage, InfoFields, editorMeta } from '~/ui/admin/EditorPage';
import { Field, SelectField, inputClass } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { LanguageTabs, RichTextField } from '~/ui/admin/content';
import { editorAction, editorLoader, type EditorSpec } from '../editorial/editor.server';

const LIST = '/admin/blog';
/** A write's answer as the editor helper takes it: the post's French title and version, or why not. */
const outcome = (r: { post: BlogPost } | { error: string }) => ('error' in r ? r : { title: r.post.translations.fr.title, version: r.post.version });

/** A blog post in its editor: the rest of the loader and action is the editors' (editor.server.ts). */
const POST: EditorSpec<z.infer<typeof postSchema>, PostInput> = {
  ed: postEditable,
  schema: postSchema,
  missing: 'Article introuvable',
  blank: () => ({ author: DEFAULT_AUTHOR, date: today(), status: 'Brouillon' }),
  valuesOf(snapshot) {
    const shown = snapshot as unknown as PostInput;
    return {
      image: shown.image,
      author: shown.author,
      date: shown.date,
      status: shown.status,
      ...flattenTranslations(shown.translations as unknown as Record<Lang, Record<string, string>>, POST_TEXT_KEYS),
    };
  },
  inputOf: (d) => ({ image: d.image, author: d.author, date: d.date, status: d.status, translations: translationsOf(d, POST_TEXT_KEYS) as Record<Lang, PostTranslation> }),
  create: { toast: 'Article ajouté !', write: async (actor, input) => outcome({ post: await createPost(db(), actor, input) }) },
  // An unpublished post is saved in place (visitors do not see it either way).
  update: { toast: 'Article modifié !', write: async (actor, id, input, version) => outcome(await updatePost(db(), actor, id, input, version)) },
};

export const loader = (args: Route.LoaderArgs) => editorLoader(args, POST);
export const action = (args: Route.ActionArgs) => editorAction(args, POST);

export const meta: Route.MetaFunction = editorMeta('Ajouter un article', 'Modifier un article');

export default function PostEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { isNew } = loaderData;
  return (
    <EditorPage title={isNew ? 'Ajouter un article' : "Modifier l'article"} list={LIST} schema={postSchema} submitLabel={isNew ? "Ajouter l'article" : 'Enregistrer'} loaderData={loaderData} actionData={actionData}>
      {(errors, v) => (
        <>
          <InfoFields image={<ImageField name="image" label="Image de couverture *" defaultValue={v.image} error={errors.image} />}>
            <Field name="author" label="Auteur *" required maxLength={300} defaultValue={v.author} error={errors.author} />
            <Field name="date" label="Date *" type="date" required defaultValue={v.date} error={errors.date} />
            <SelectField name="status" label="Statut" options={POST_STATUSES} defaultValue={v.status ?? 'Brouillon'} error={errors.status} />
          </InfoFields>
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
    </EditorPage>
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
