import type { DB } from '~db/index';
import type { EntityRef, OpenedOn } from './editorial';

/**
 * Autosave and presence (ADR 015): each editor of an item has one row per item holding when they
 * opened it and, once they type, the form's values saved every few seconds. A copy is written
 * only over the one this editor last saw (`seq`) and only while the live item is still at the
 * version the form was opened at, so an autosave never overwrites a newer save. The copy keeps
 * the draft the form showed, and is offered back only while that draft is still the item's.
 */

export interface Editor {
  id: string;
  name: string;
}

/** Form values as typed (flat `fr.title` names), capped so a copy cannot fill the database. */
export type FormCopy = Record<string, string>;
export const AUTOSAVE_MAX_CHARS = 400_000;

/** Someone else counts as having the item open for this long after they opened it or last typed. */
export const PRESENCE_MS = 30 * 60 * 1000;

export interface Presence {
  name: string;
  openedAt: string;
  /** Their last autosave, when they typed. */
  savedAt: string | null;
}

export interface EditorState {
  seq: number;
  /** This editor's copy, when it was typed on the version and draft the form shows now (restorable). */
  copy: { values: FormCopy; savedAt: string } | null;
  others: Presence[];
}

const where = (ref: EntityRef) => (qb: any) => qb.where('entity_type', '=', ref.type).where('entity_id', '=', ref.id);

/** Someone else's rows for this item, recent ones only. */
export async function othersEditing(db: DB, ref: EntityRef, userId: string, now = new Date()): Promise<Presence[]> {
  const since = new Date(now.getTime() - PRESENCE_MS).toISOString();
  const rows = await db
    .selectFrom('autosaves')
    .select(['user_name', 'opened_at', 'saved_at'])
    .where('entity_type', '=', ref.type)
    .where('entity_id', '=', ref.id)
    .where('user_id', '!=', userId)
    .where((eb) => eb.or([eb('opened_at', '>=', since), eb('saved_at', '>=', since)]))
    .orderBy('opened_at', 'desc')
    .execute();
  return rows.map((r) => ({ name: r.user_name, openedAt: r.opened_at, savedAt: r.saved_at }));
}

/**
 * The editor opens the item (the form shows `form.version` and the draft saved at
 * `form.draftSavedAt`): marks them present, and answers their own copy when it was typed on this
 * same version and draft. A copy typed on an older version or another draft is dropped: restoring
 * it would undo, unseen, someone's save or draft.
 */
export async function openForEditing(db: DB, ref: EntityRef, editor: Editor, form: OpenedOn, now = new Date()): Promise<EditorState> {
  const at = now.toISOString();
  const { version, draftSavedAt } = form;
  const mine = await db.selectFrom('autosaves').selectAll().$call(where(ref)).where('user_id', '=', editor.id).executeTakeFirst();
  const keep = mine?.snapshot != null && Number(mine.base_version) === version && mine.draft_saved_at === draftSavedAt;
  const seq = Number(mine?.seq ?? 0);
  await db
    .insertInto('autosaves')
    .values({ entity_type: ref.type, entity_id: ref.id, user_id: editor.id, user_name: editor.name, snapshot: null, base_version: version, draft_saved_at: draftSavedAt, seq, opened_at: at, saved_at: null })
    .onConflict((oc) =>
      oc.columns(['entity_type', 'entity_id', 'user_id']).doUpdateSet(
        keep
          ? { user_name: editor.name, opened_at: at }
          : { user_name: editor.name, opened_at: at, snapshot: null, saved_at: null, base_version: version, draft_saved_at: draftSavedAt },
      ),
    )
    .execute();
  return {
    seq,
    copy: keep ? { values: JSON.parse(mine!.snapshot!), savedAt: mine!.saved_at! } : null,
    others: await othersEditing(db, ref, editor.id, now),
  };
}

export type AutosaveResult = { ok: true; seq: number; savedAt: string } | { ok: false; error: 'stale' | 'newer' | 'tooLarge' };

/**
 * Writes the editor's copy if it is still the one they last saw (`seq`) and the live item is
 * still at `version` (`liveVersion`, read by the caller): `newer` when another window of theirs
 * saved a later copy, `stale` when someone saved the item itself since. The copy keeps the draft
 * its form showed (`draftSavedAt`).
 */
export async function autosave(
  db: DB,
  ref: EntityRef,
  editor: Editor,
  input: OpenedOn & { values: FormCopy; seq: number; liveVersion: number },
  now = new Date(),
): Promise<AutosaveResult> {
  if (input.liveVersion !== input.version) return { ok: false, error: 'stale' };
  const text = JSON.stringify(input.values);
  if (text.length > AUTOSAVE_MAX_CHARS) return { ok: false, error: 'tooLarge' };
  const at = now.toISOString();
  const result = await db
    .updateTable('autosaves')
    .set({ snapshot: text, seq: input.seq + 1, saved_at: at, base_version: input.version, draft_saved_at: input.draftSavedAt, user_name: editor.name })
    .$call(where(ref))
    .where('user_id', '=', editor.id)
    .where('seq', '=', input.seq)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { ok: false, error: 'newer' };
  return { ok: true, seq: input.seq + 1, savedAt: at };
}

/** After a real save the copy has served: it is dropped (presence stays). */
export async function clearCopy(db: DB, ref: EntityRef, userId: string, version: number): Promise<void> {
  await db.updateTable('autosaves').set({ snapshot: null, saved_at: null, base_version: version }).$call(where(ref)).where('user_id', '=', userId).execute();
}

/** The editor's current copy, if any (for "Restaurer la copie"). */
export async function getCopy(db: DB, ref: EntityRef, userId: string): Promise<{ values: FormCopy; baseVersion: number; draftSavedAt: string; savedAt: string } | undefined> {
  const r = await db.selectFrom('autosaves').selectAll().$call(where(ref)).where('user_id', '=', userId).executeTakeFirst();
  if (!r?.snapshot) return undefined;
  return { values: JSON.parse(r.snapshot), baseVersion: Number(r.base_version), draftSavedAt: r.draft_saved_at, savedAt: r.saved_at! };
}
