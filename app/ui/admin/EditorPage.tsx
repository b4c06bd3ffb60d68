import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ServerToast } from '~/ui/site/ToastRegion';
import { ContentForm, SavedNotice, useSavedRedirect } from './content';
import { EditorialFormActions, EditorialPanel, StayNotice, useAutosave, type EditorialView } from './editorial';

/** What an editor's loader gives its page (`EditorData` of app/routes/admin/editorial/editor.server.ts). */
interface EditorLoaded {
  version: number | undefined;
  values: Record<string, string>;
  editorial: EditorialView | null;
}

/** What an editor's action answers (`FormResult` of app/routes/admin/content/form.server.ts). */
interface EditorAnswer {
  saved?: boolean;
  errors?: Record<string, string>;
  values?: Record<string, string> | null;
  toast?: ServerToast | null;
}

/**
 * The page of a content editor (post, project, campaign, partner, page): its heading, the saved
 * and draft notices, the editorial panel (draft state, presence, autosaved copy, preview), and the
 * form with the workflow's buttons and autosave. The editor gives only its fields, as `children`:
 * called with the errors shown and the values to show (what was typed, after a refused save).
 */
export function EditorPage({
  title,
  intro,
  list,
  schema,
  submitLabel,
  loaderData,
  actionData,
  children,
}: {
  title: string;
  /** Under the heading (a page's public address). */
  intro?: ReactNode;
  /** The editor's list: where "Annuler" and a save lead. */
  list: string;
  schema: z.ZodType;
  /** The submit button of a form outside the workflow (a new item's). */
  submitLabel: string;
  loaderData: EditorLoaded;
  actionData: EditorAnswer | undefined;
  children: (errors: Record<string, string>, values: Record<string, string>) => ReactNode;
}) {
  const { version, editorial } = loaderData;
  useSavedRedirect(actionData, list);
  const v = actionData?.values ?? loaderData.values;
  const autosave = useAutosave({ url: editorial?.autosavePath ?? '', initialSeq: editorial?.seq ?? 0, initialOthers: editorial?.others ?? [] });
  const heading = <h1 className="text-3xl font-bold text-gray-900">{title}</h1>;
  return (
    <div className="space-y-6">
      {intro ? (
        <div>
          {heading}
          {intro}
        </div>
      ) : (
        heading
      )}
      <SavedNotice actionData={actionData} to={list} />
      <StayNotice actionData={actionData} />
      {editorial && <EditorialPanel editorial={editorial} autosave={autosave} />}
      <ContentForm
        schema={schema}
        errors={actionData?.errors}
        version={version}
        submitLabel={submitLabel}
        cancelTo={list}
        onInput={editorial ? autosave.onInput : undefined}
        actions={editorial && <EditorialFormActions editorial={editorial} cancelTo={list} publishAt={v.publishAt} error={actionData?.errors?.publishAt} status={autosave.status} />}
      >
        {(errors) => children(errors, v)}
      </ContentForm>
    </div>
  );
}

/** An editor's `meta`: its title, adding an item or changing one, kept out of search engines. */
export function editorMeta(adding: string, changing: string) {
  return ({ loaderData }: { loaderData?: { isNew?: boolean } }) => [{ title: `${loaderData?.isNew ? adding : changing} | Administration` }, { name: 'robots', content: 'noindex' }];
}

/** The first box of an editor's form: "Informations", the item's image across its top, then its fields. */
export function InfoFields({ image, children }: { image: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="grid gap-5 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:grid-cols-2">
      <legend className="px-1 font-semibold text-gray-900">Informations</legend>
      <div className="sm:col-span-2">{image}</div>
      {children}
    </fieldset>
  );
}
