import { Link, data } from 'react-router';
import { z } from 'zod';
import type { Route } from './+types/page-edit';
import { optionalMediaUrl, optionalText, richText, inLang, flattenTranslations } from '~/domain/content/forms';
import { pageEditable } from '~/domain/content/editable.server';
import { findManagedPage, type ManagedPage, type PageContent, type PageId } from '~/domain/content/pages';
import { cleanPageContent, getEditablePage, pageContentOf, pageSnapshot } from '~/domain/content/pages.server';
import { requireUser } from '~/routes/admin/auth.server';
import { LANGS } from '~/lib/i18n';
import { db } from '~/lib/runtime.server';
import { Field, primaryButton } from '~/ui/admin/Field';
import { ImageField } from '~/ui/admin/ImageField';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave } from '~/ui/admin/editorial';
import { ContentForm, LanguageTabs, RichTextField, SavedNotice, useSavedRedirect } from '~/ui/admin/content';
import { discardAction, editorialState, liveEditorialAction } from '../editorial/editorial.server';
import { readForm } from './form.server';

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

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const me = await requireUser(request, context, { area: 'pages' });
  const page = findManagedPage(params.pageId);
  if (!page) return data({ page: null, version: 0, values: {} as Record<string, string>, editorial: null }, { status: 404 });
  const content = await getEditablePage(db(), page.id as PageId);
  const editorial = await editorialState(request, me, pageEditable, page.id, { version: content.version, snapshot: pageSnapshot(content) });
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const shown = editorial.draft ? pageContentOf(editorial.draft.snapshot) : content;
  return {
    page: { id: page.id, name: page.name, path: page.path, fields: page.fields },
    version: content.version,
    values: editorial.restoredCopy ?? formValues(page, shown),
    editorial: { ...editorial.view, published: true },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'pages' });
  const page = findManagedPage(params.pageId);
  if (!page) throw data('Page non trouvée', { status: 404 });
  const form = await readForm(request, pageSchema(page));
  if (form.values.intent === 'discard') return discardAction(me, pageEditable, page.id, form.values);
  if ('failure' in form) return form.failure;
  const values = form.data as Record<string, string>;
  const content: PageContent = { images: {}, texts: { fr: {}, en: {}, es: {} } };
  for (const f of page.fields) {
    if (f.kind === 'image') content.images[f.id] = values[f.id] ?? '';
    else for (const lang of LANGS) content.texts[lang][f.id] = values[`${lang}.${f.id}`] ?? '';
  }
  // Visitors always see a page: what is typed is a draft until "Publier" (ADR 015).
  return liveEditorialAction(me, pageEditable, page.id, form, pageSnapshot(cleanPageContent(page.id as PageId, content)));
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.page ? `Modifier : ${loaderData.page.name}` : 'Page Inconnue'} | Administration` },
  { name: 'robots', content: 'noindex' },
];

export default function PageEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { page, version, editorial } = loaderData;
  useSavedRedirect(actionData, LIST);
  // Before the early return: a hook is called on every render.
  const autosave = useAutosave({ url: editorial?.autosavePath ?? '', initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
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
  const v: Record<string, string> = actionData?.values ?? loaderData.values;
  const images = page.fields.filter((f) => f.kind === 'image');
  const texts = page.fields.filter((f) => f.kind !== 'image');
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-gray-900">Modifier : {page.name}</h1>
        <p className="mt-1 text-gray-700">
          Page publique :{' '}
          <a href={page.path} target="_blank" rel="noopener" className="text-brand-800 underline">
            {page.path}
            <span className="sr-only"> (nouvel onglet)</span>
          </a>
        </p>
      </div>
      <SavedNotice actionData={actionData} to={LIST} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={pageSchema(page)}
        errors={actionData?.errors}
        version={version}
        submitLabel="Sauvegarder"
        cancelTo={LIST}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={LIST} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
        {(errors) => (
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
      </ContentForm>
    </div>
  );
}
