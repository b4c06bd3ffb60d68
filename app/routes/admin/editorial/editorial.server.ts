import { data } from 'react-router';
import { actorOf } from '~/routes/admin/auth.server';
import { contentChanged, db, runtime } from '~/lib/runtime.server';
import type { SessionUser } from '~/domain/users/sessions.server';
import { changedKeys, type Editable } from '~/domain/revisions/editables.server';
import { type EntityRef, type Snapshot, formatParis, withQuery, parisLocalToUtc, timeAgo, utcToParisLocal } from '~/domain/revisions/editorial';
import { clearCopy, openForEditing } from '~/domain/revisions/autosave.server';
import { previewToken } from '~/domain/revisions/preview.server';
import { listRevisions } from '~/domain/revisions/revisions.server';
import { discardDraft, getDraft, publish, saveDraft } from '~/domain/revisions/workflow.server';
import { conflict, failed, saved, type FormResult } from '../content/form.server';
import { PUBLISHED_NOTE, savedTitle } from './messages.server';

/**
 * The editorial workflow's part of an edit screen's loader and action (ADR 015), for any content
 * type that has an `Editable`: the screen keeps its own form and schema, and hands the parsed
 * snapshot here for "Enregistrer le brouillon", "Publier", "Programmer" and "Abandonner".
 */

/** What the edit screen shows about drafts, presence, autosave and preview. */
export async function editorialState(request: Request, me: SessionUser, ed: Editable, id: string, live: { version: number; snapshot: Snapshot }) {
  const { version } = live;
  const ref = { type: ed.type, id };
  const draft = await getDraft(db(), ref);
  const editor = await openForEditing(db(), ref, { id: me.id, name: me.name }, { version, draftSavedAt: draft?.savedAt ?? '' });
  const url = new URL(request.url);
  const restoredCopy = url.searchParams.get('copie') === '1' && editor.copy ? editor.copy.values : null;
  const origin = runtime().publicUrl ?? url.origin;
  const publicPath = ed.publicPath?.(id, live.snapshot) ?? '';
  return {
    draft,
    restoredCopy,
    view: {
      id,
      seq: editor.seq,
      others: editor.others,
      copy: editor.copy && !restoredCopy ? { savedAt: editor.copy.savedAt } : null,
      draft: draft ? { savedByName: draft.savedByName, savedAt: draft.savedAt, publishAt: draft.publishAt } : null,
      publishAtLocal: draft?.publishAt ? utcToParisLocal(draft.publishAt) : '',
      noun: ed.noun,
      publicPath,
      shareUrl: publicPath ? withQuery(`${origin}${publicPath}`, { apercu: previewToken(runtime().secret, ref) }) : '',
      historyPath: `${ed.adminPath}/${encodeURIComponent(id)}/historique`,
      autosavePath: `${ed.adminPath}/${encodeURIComponent(id)}/autosave`,
    },
  };
}

/** "Modifié par X il y a 2 min." from the item's last revision, for a refused save. */
export async function lastChange(ref: EntityRef, now = new Date()): Promise<string | undefined> {
  const [last] = await listRevisions(db(), ref);
  return last ? `Modifié par ${last.authorName} ${timeAgo(last.createdAt, now)}.` : undefined;
}

/** After a real save the editor's autosaved copy has served. */
export async function afterSave(me: SessionUser, ref: EntityRef, version: number): Promise<void> {
  await clearCopy(db(), ref, me.id, version);
}

/** A publication refused because another item took a value this one must have alone (a campaign's address). */
export const TAKEN = 'Un autre élément utilise désormais une valeur de cette version (par exemple son adresse) : modifiez-la avant de publier.';

const stay = (title: string, description?: string): FormResult => ({ saved: false, errors: {}, values: null, toast: { title, description, variant: 'success' } });

/**
 * A refused write as the screen shows it: not found, a value another item has taken, or (the form
 * was opened on an older state of the item or of its draft) who changed it last, the values kept.
 */
async function refused(ref: EntityRef, values: Record<string, string>, error: 'notFound' | 'conflict' | 'taken') {
  if (error === 'notFound') throw data('Introuvable', { status: 404 });
  if (error === 'taken') return failed(409, { form: TAKEN }, values);
  return conflict(values, await lastChange(ref));
}

/** "Abandonner le brouillon": only the draft the form showed (`draftSavedAt`), never a newer one. */
export async function discardAction(me: SessionUser, ed: Editable, id: string, values: Record<string, string>) {
  const result = await discardDraft(db(), ed, id, values.draftSavedAt ?? '', actorOf(me));
  if (!result.ok) return refused({ type: ed.type, id }, values, result.error);
  return stay('Brouillon abandonné', 'Le formulaire montre la version enregistrée.');
}

/**
 * Handles the workflow's intents for an existing item; answers `'save'` when the screen should
 * save in place itself (an unpublished item's "Enregistrer").
 */
export async function editorialAction(
  me: SessionUser,
  ed: Editable,
  id: string,
  form: { values: Record<string, string>; version: number },
  snapshot: Snapshot,
  published: boolean,
) {
  const intent = form.values.intent ?? 'save';
  const ref = { type: ed.type, id };
  const actor = actorOf(me);
  const openedOn = { version: form.version, draftSavedAt: form.values.draftSavedAt ?? '' };
  const refuse = (error: 'notFound' | 'conflict' | 'taken') => refused(ref, form.values, error);
  if (intent === 'publish') {
    const result = await publish(db(), ed, id, { ...openedOn, snapshot }, actor);
    if (!result.ok) return refuse(result.error);
    await afterSave(me, ref, form.version + 1);
    await contentChanged(changedKeys(ed, id));
    return saved(savedTitle(ed), PUBLISHED_NOTE);
  }
  if (intent === 'schedule') {
    const publishAt = parisLocalToUtc(form.values.publishAt ?? '');
    if (!publishAt || new Date(publishAt).getTime() <= Date.now()) {
      return failed(400, { publishAt: 'Choisissez une date et une heure de publication à venir.' }, form.values);
    }
    const result = await saveDraft(db(), ed, id, { ...openedOn, snapshot, publishAt }, actor);
    if (!result.ok) return refuse(result.error);
    await afterSave(me, ref, form.version);
    return saved('Publication programmée', `Programmé pour le ${formatParis(publishAt)} (heure de Paris).`);
  }
  if (intent === 'draft' || published) {
    // Editing what visitors see never touches it before "Publier"; a scheduled draft keeps its date.
    const existing = await getDraft(db(), ref);
    const result = await saveDraft(db(), ed, id, { ...openedOn, snapshot, publishAt: existing?.publishAt ?? null }, actor);
    if (!result.ok) return refuse(result.error);
    await afterSave(me, ref, form.version);
    return stay('Brouillon enregistré', 'Le site public n’a pas changé.');
  }
  return 'save' as const;
}

/**
 * `editorialAction` for a type whose items are always on the site (pages, partners): every save is
 * a draft until "Publier", never a save in place.
 */
export async function liveEditorialAction(me: SessionUser, ed: Editable, id: string, form: { values: Record<string, string>; version: number }, snapshot: Snapshot) {
  const outcome = await editorialAction(me, ed, id, form, snapshot, true);
  if (outcome === 'save') throw new Error('A published item is never saved in place.');
  return outcome;
}
