import { Link, data } from 'react-router';
import { z } from 'zod';
import type { Route } from './+types/page-edit';
import { optionalMediaUrl, optionalText, richText, inLang, flattenTranslations } from '~/domain/content/forms';
import { pageEditable } from '~/domain/content/editable.server';
import { findManagedPage, type ManagedPage, type PageContent, type PageId } from '~/domain/content/pages';
import { cleanPageContent, pageContentOf, pageSnapshot } from '~/domain/content/pages.server';
import { requireUser } from '~/routes/admin/auth.server';
import { LANGS } from '~/lib/i18n';
import { Field, primaryButton } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import type { Snapshot } from '~/domain/revisions/editorial';
import { EditorPage } from '~/ui/admin/EditorPage';
import { LanguageTabs, RichTextField } from '~/ui/admin/content';
import { loadEditor, saveEditor, type EditorSpec } from '../editorial/editor.server';

const LIST = '/admin/pages';

/** One page's form: its image fields once, its text and rich fields per language (none required). */
function pageSchema(page: Pick<ManagedPage, 'fields'>) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of page.fields) {
    if (f.kind === 'image') shape[f.id] = optionalMediaUrl;
    else for (const lang of LANGS) shape[`${lang}.${f.id}`] = f.kind === 'rich' ? richText : optionalText(f.id === 'address' ? 300 : 500);
  }
  return z.object(shape);
}

/** The form's values of a page's content: image fields, then `<lang>.<field>`. */
function formValues(page: ManagedPage, content: PageContent): Record<string, string> {
  const textIds = page.fields.filter((f) => f.kind !== 'image').map((f) => f.id);
  return { ...content.images, ...flattenTranslations(content.texts, textIds) };
}

/** A managed page in its editor: the rest of the loader and action is the editors' (editor.server.ts). */
function pageEditor(page: ManagedPage): EditorSpec<Record<string, string>, Snapshot> {
  return {
    ed: pageEditable,
    schema: pageSchema(page) as z.ZodType<Record<string, string>>,
    missing: 'Page non trouvée',
    valuesOf: (snapshot) => formValues(page, pageContentOf(snapshot)),
    inputOf(values) {
      const content: PageContent = { images: {}, texts: { fr: {}, en: {}, es: {} } };
      for (const f of page.fields) {
        if (f.kind === 'image') content.images[f.id] = values[f.id] ?? '';
        else for (const lang of LANGS) content.texts[lang][f.id] = values[`${lang}.${f.id}`] ?? '';
      }
      return pageSnapshot(cleanPageContent(page.id as PageId, content));
    },
    // Visitors always see a page: what is typed is a draft until "Publier" (ADR 015); no `create`, no `update`.
  };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'pages' });
  const page = findManagedPage(params.pageId);
  if (!page) return data({ page: null, version: 0, values: {} as Record<string, string>, editorial: null }, { status: 404 });
  const editor = await loadEditor(me, request, page.id, pageEditor(page));
  return { ...editor, page: { id: page.id, name: page.name, path: page.path, fields: page.fields } };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'pages' });
  const page = findManagedPage(params.pageId);
  if (!page) throw data('Page non trouvée', { status: 404 });
  return saveEditor(me, request, page.id, pageEditor(page));
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.page ? `Modifier : ${loaderData.page.name}` : 'Page Inconnue'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function PageEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = loaderData;
  if (!page) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold text-gray-900">Page Inconnue</h1>
        <p className="text-gray-700">Page non trouvée</p>
        <Link to={LIST} className={primaryButton}>
          Retour aux pages
        </Link>
      </div>
    );
  }
  const images = page.fields.filter((f) => f.kind === 'image');
  const texts = page.fields.filter((f) => f.kind !== 'image');
  const intro = (
    <p className="mt-1 text-gray-700">
      Page publique :{' '}
      <a href={page.path} target="_blank" rel="noopener" className="text-brand-800 underline">
        {page.path}
        <span className="sr-only"> (nouvel onglet)</span>
      </a>
    </p>
  );
  return (
    <EditorPage title={`Modifier : ${page.name}`} intro={intro} list={LIST} schema={pageSchema(page)} submitLabel="Sauvegarder" loaderData={loaderData} actionData={actionData}>
      {(errors, v) => (
        <>
          <LanguageTabs errors={errors}>
            {(lang) =>
              texts.map((f) =>
                f.kind === 'rich' ? (
                  <RichTextField key={f.id} name={`${lang}.${f.id}`} label={inLang(f.label, lang)} defaultValue={v[`${lang}.${f.id}`]} error={errors[`${lang}.${f.id}`]} />
                ) : (
                  <Field key={f.id} name={`${lang}.${f.id}`} id={`${lang}-${f.id}`} label={inLang(f.label, lang)} maxLength={500} defaultValue={v[`${lang}.${f.id}`]} error={errors[`${lang}.${f.id}`]} />
                ),
              )
            }
          </LanguageTabs>
          {images.length > 0 && (
            <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm lg:grid-cols-2">
              <legend className="px-1 font-semibold text-gray-900">Images (communes aux trois langues)</legend>
              {images.map((f) => (
                <ImageField key={f.id} name={f.id} label={f.label} defaultValue={v[f.id]} error={errors[f.id]} />
              ))}
            </fieldset>
          )}
        </>
      )}
    </EditorPage>
  );
}
