import { data, type RouterContextProvider } from 'react-router';
import type { z } from 'zod';
import type { Actor } from '~/domain/audit/audit.server';
import { changedKeys, type Editable, type LiveItem } from '~/domain/revisions/editables.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import type { SessionUser } from '~/domain/users/sessions.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import type { EditorialView } from '~/ui/admin/editorial';
import { conflict, failed, readForm, saved } from '../content/form.server';
import { afterSave, discardAction, editorialAction, editorialState, lastChange, liveEditorialAction } from './editorial.server';

/**
 * The loader and action every content editor shares (post, project, campaign, partner, page):
 * the role check, the form read against the editor's schema, the editorial workflow's intents
 * (ADR 015), the save in place of an item visitors do not see, and the answers. An editor route
 * says only what is its own in an `EditorSpec`: its content type, schema, fields and toasts.
 */

/** A write's outcome as the helper needs it: the saved item's French title and version, or why not. */
export type SaveOutcome = { title: string; version: number } | { error: string };

export interface EditorSpec<Data, Input extends object> {
  /** The content type in the workflow: its area (role check), its type (revisions), how to read it. */
  ed: Editable;
  schema: z.ZodType<Data>;
  /** The 404's text for an item that does not exist ("Article introuvable"). */
  missing: string;
  /** The form's values for a new item. */
  blank?: () => Record<string, string>;
  /** The form's values showing a snapshot (the live item, or its draft). */
  valuesOf(snapshot: Snapshot): Record<string, string>;
  /** The item a valid form describes (its snapshot for the workflow). */
  inputOf(data: Data): Input;
  /** What the form leaves of the live item unchanged (a project's visibility), before it is written. */
  keep?(input: Input, live: LiveItem): Input;
  /** A refusal known before any write (a campaign's address taken): its name in `problems`. */
  check?(id: string | null, input: Input): Promise<string | null>;
  /** The field errors of a named refusal, from `check`, `create` or `update`. */
  problems?: Record<string, Record<string, string>>;
  /** Creates an item, and the title of the toast saying so (absent: the type has no "Ajouter"). */
  create?: { toast: string; write(actor: Actor, input: Input): Promise<SaveOutcome> };
  /**
   * Saves an existing item in place when visitors do not see it, and the title of the toast saying
   * so (absent: the type's items are always on the site, every change is a draft until "Publier").
   */
  update?: { toast: string; write(actor: Actor, id: string, input: Input, version: number): Promise<SaveOutcome> };
  /** "Publier" with this input takes a published item off the site: saved in place, with its own toast. */
  withdraw?: { when(input: Input): boolean; toast: string; description(title: string): string };
}

export interface EditorData {
  isNew: boolean;
  version: number | undefined;
  values: Record<string, string>;
  editorial: EditorialView | null;
}

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: { id?: string };
}

const notFound = (spec: { missing: string }) => data(spec.missing, { status: 404 });

/** The editor's loader: the role check, then `loadEditor` for the item at `params.id` (none: a new one). */
export async function editorLoader<Data, Input extends object>({ request, context, params }: Args, spec: EditorSpec<Data, Input>): Promise<EditorData> {
  const me = await requireUser(request, context, { area: spec.ed.area });
  return loadEditor(me, request, params.id, spec);
}

/** The form's values, version and workflow state of an item (its draft when there is one). */
export async function loadEditor<Data, Input extends object>(me: SessionUser, request: Request, id: string | undefined, spec: EditorSpec<Data, Input>): Promise<EditorData> {
  if (!id) return { isNew: true, version: undefined, values: spec.blank?.() ?? {}, editorial: null };
  const live = await spec.ed.read(db(), id);
  if (!live) throw notFound(spec);
  const editorial = await editorialState(request, me, spec.ed, id, live);
  // The form continues the draft when there is one; "Restaurer la copie" shows the autosaved copy instead.
  const values = editorial.restoredCopy ?? spec.valuesOf(editorial.draft?.snapshot ?? live.snapshot);
  return { isNew: false, version: live.version, values, editorial: { ...editorial.view, published: live.published } };
}

/** The editor's action: the role check, then `saveEditor` for the item at `params.id` (none: a new one). */
export async function editorAction<Data, Input extends object>({ request, context, params }: Args, spec: EditorSpec<Data, Input>) {
  const me = await requireUser(request, context, { area: spec.ed.area });
  return saveEditor(me, request, params.id, spec);
}

/** A posted editor form: "Abandonner le brouillon", then the checks, then a creation, a draft, a publication or a save in place. */
export async function saveEditor<Data, Input extends object>(me: SessionUser, request: Request, id: string | undefined, spec: EditorSpec<Data, Input>) {
  const { ed } = spec;
  const form = await readForm(request, spec.schema);
  if (id && form.values.intent === 'discard') return discardAction(me, ed, id, form.values);
  if ('failure' in form) return form.failure;
  const input = spec.inputOf(form.data as Data);
  const refusedSave = async (error: string) => {
    if (error === 'notFound') throw notFound(spec);
    const fields = spec.problems?.[error];
    if (fields) return failed(400, fields, form.values);
    return conflict(form.values, id ? await lastChange({ type: ed.type, id }) : undefined);
  };
  // A draft is checked as a save would be (a campaign's address must stay free).
  const problem = await spec.check?.(id ?? null, input);
  if (problem) return refusedSave(problem);
  if (!id) {
    if (!spec.create) throw notFound(spec);
    const created = await spec.create.write(actorOf(me), input);
    if ('error' in created) return refusedSave(created.error);
    await contentChanged();
    return saved(spec.create.toast, created.title);
  }
  // Visitors always see such an item: what is typed is a draft until "Publier" (ADR 015).
  if (!spec.update) return liveEditorialAction(me, ed, id, form, { ...input } as Snapshot);
  const live = await ed.read(db(), id);
  if (!live) throw notFound(spec);
  const kept = spec.keep ? spec.keep(input, live) : input;
  const withdraw = live.published && form.values.intent === 'publish' && spec.withdraw?.when(kept);
  if (!withdraw) {
    const outcome = await editorialAction(me, ed, id, form, { ...kept } as Snapshot, live.published);
    if (outcome !== 'save') return outcome;
  }
  // An item visitors do not see is saved in place (they do not see it either way), and so is a withdrawal.
  const result = await spec.update.write(actorOf(me), id, kept, form.version);
  if ('error' in result) return refusedSave(result.error);
  await afterSave(me, { type: ed.type, id }, result.version);
  await contentChanged(changedKeys(ed, id));
  if (withdraw && spec.withdraw) return saved(spec.withdraw.toast, spec.withdraw.description(result.title));
  return saved(spec.update.toast, result.title);
}
