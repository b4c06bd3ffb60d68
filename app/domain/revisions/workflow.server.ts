import type { DB } from '~db/index';
import { isUniqueViolation } from '~db/helpers';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { EntityRef, OpenedOn, Snapshot } from './editorial';
import type { Editable } from './editables.server';
import { getRevision, recordBaseline, recordRevision, revisionsKeep } from './revisions.server';

/**
 * Drafts, publication, scheduled publication and restores, for any content type that gives an
 * `Editable` (ADR 015). Every function writes in one transaction with its revision and audit entry;
 * the caller invalidates caches (`contentChanged()`) when something was published.
 */

export type WriteResult = { ok: true; revision: number } | { ok: false; error: 'notFound' | 'conflict' };

/** What publishing answers: 'taken' as for a restore (a campaign's address another one has now). */
export type PublishResult = WriteResult | { ok: false; error: 'taken' };

/** Rolls a transaction back when the item's write is refused (nothing of it may stay). */
class Refused extends Error {
  constructor(readonly error: 'notFound' | 'conflict' | 'taken') {
    super(error);
  }
}

/** Runs `write` in a transaction; a refused write or a unique violation leaves nothing written. */
async function refusable<T>(db: DB, write: (trx: DB) => Promise<T>): Promise<T | { ok: false; error: 'notFound' | 'conflict' | 'taken' }> {
  try {
    return await db.transaction().execute(write);
  } catch (e) {
    if (e instanceof Refused) return { ok: false, error: e.error };
    if (isUniqueViolation(e)) return { ok: false, error: 'taken' };
    throw e;
  }
}

export interface Draft {
  snapshot: Snapshot;
  baseVersion: number;
  publishAt: string | null;
  savedById: string | null;
  savedByName: string;
  savedAt: string;
}

const refOf = (ed: Editable, id: string): EntityRef => ({ type: ed.type, id });

export async function getDraft(db: DB, ref: EntityRef): Promise<Draft | undefined> {
  const r = await db.selectFrom('drafts').selectAll().where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).executeTakeFirst();
  if (!r) return undefined;
  return { snapshot: JSON.parse(r.snapshot), baseVersion: Number(r.base_version), publishAt: r.publish_at, savedById: r.saved_by_id, savedByName: r.saved_by_name, savedAt: r.saved_at };
}

/** Publication dates of the scheduled items among `ids` (for lists: "Programmé pour le …"). */
export async function scheduledFor(db: DB, type: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('drafts')
    .select(['entity_id', 'publish_at'])
    .where('entity_type', '=', type)
    .where('entity_id', 'in', ids)
    .where('publish_at', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.entity_id, r.publish_at!]));
}

/**
 * Deletes the draft the form was opened on (none when `draftSavedAt` is empty); false when the
 * item's draft is another one now, or there is one where the form had none.
 */
async function takeDraft(trx: DB, ref: EntityRef, draftSavedAt: string): Promise<boolean> {
  if (draftSavedAt === '') return !(await getDraft(trx, ref));
  const gone = await trx.deleteFrom('drafts').where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).where('saved_at', '=', draftSavedAt).executeTakeFirst();
  return Number(gone.numDeletedRows) === 1;
}

/**
 * Saves the item's draft (visitors still see the live item), scheduled when `publishAt` (UTC ISO)
 * is given. Refused with `conflict` when the live item changed since `version` was read, or when
 * the draft changed since `draftSavedAt` (empty: there was no draft).
 */
export async function saveDraft(
  db: DB,
  ed: Editable,
  id: string,
  input: OpenedOn & { snapshot: Snapshot; publishAt?: string | null },
  actor: Actor,
): Promise<WriteResult> {
  return db.transaction().execute(async (trx) => {
    const live = await ed.read(trx, id);
    if (!live) return { ok: false, error: 'notFound' } as const;
    const existing = await getDraft(trx, refOf(ed, id));
    if (live.version !== input.version || (existing?.savedAt ?? '') !== input.draftSavedAt) return { ok: false, error: 'conflict' } as const;
    await recordBaseline(trx, refOf(ed, id), live.snapshot);
    const values = {
      snapshot: JSON.stringify(input.snapshot),
      base_version: live.version,
      publish_at: input.publishAt ?? null,
      saved_by_id: actor.id,
      saved_by_name: actor.name,
      // The draft's time is what forms check it by: a new draft is always later than the one it replaces.
      saved_at: new Date(Math.max(Date.now(), existing ? Date.parse(existing.savedAt) + 1 : 0)).toISOString(),
    };
    await trx
      .insertInto('drafts')
      .values({ entity_type: ed.type, entity_id: id, ...values })
      .onConflict((oc) => oc.columns(['entity_type', 'entity_id']).doUpdateSet(values))
      .execute();
    const revision = await recordRevision(trx, refOf(ed, id), input.snapshot, actor, input.publishAt ? 'schedule' : 'draft');
    await audit(trx, actor, input.publishAt ? `${ed.type}.schedule` : `${ed.type}.draft`, live.label, { id, publishAt: input.publishAt ?? undefined, revision });
    return { ok: true, revision } as const;
  });
}

/** "Abandonner le brouillon": deletes the draft the form showed (`draftSavedAt`), `conflict` when it is another one now. */
export async function discardDraft(db: DB, ed: Editable, id: string, draftSavedAt: string, actor: Actor): Promise<{ ok: true } | { ok: false; error: 'conflict' }> {
  return db.transaction().execute(async (trx) => {
    if (!(await takeDraft(trx, refOf(ed, id), draftSavedAt))) return { ok: false, error: 'conflict' } as const;
    if (draftSavedAt !== '') await audit(trx, actor, `${ed.type}.draft.discard`, (await ed.read(trx, id))?.label ?? id, { id });
    return { ok: true } as const;
  });
}

/**
 * "Publier": the snapshot becomes the live, visible item and the draft (and its schedule) is gone.
 * Refused with `conflict`, like a draft, when the live item or its draft changed since the form was opened.
 */
export async function publish(db: DB, ed: Editable, id: string, input: OpenedOn & { snapshot: Snapshot }, actor: Actor): Promise<PublishResult> {
  return refusable(db, async (trx) => {
    const published = ed.asPublished(input.snapshot);
    const before = await ed.read(trx, id);
    if (before) await recordBaseline(trx, refOf(ed, id), before.snapshot);
    if (!(await takeDraft(trx, refOf(ed, id), input.draftSavedAt))) throw new Refused('conflict');
    const result = await ed.write(trx, id, published, input.version);
    if (result !== 'ok') throw new Refused(result);
    const revision = await recordRevision(trx, refOf(ed, id), published, actor, 'publish');
    await audit(trx, actor, `${ed.type}.publish`, (await ed.read(trx, id))?.label ?? id, { id, revision });
    return { ok: true, revision } as const;
  });
}

/** Who publishes what was scheduled (the job, on behalf of whoever scheduled it). */
export const SCHEDULER: Actor = { id: null, name: 'Publication programmée' };

/**
 * Publishes every draft whose date has come. Each one is claimed by deleting it (a row only one
 * transaction can delete), so with several instances running this job an item is published once.
 * A draft that cannot be published any more (it holds a campaign address another campaign took
 * since) is kept, unscheduled, with an audit entry saying why, rather than retried every pass.
 * Answers what this call published.
 */
export async function publishDue(db: DB, editables: (type: string) => Editable | undefined, now: Date): Promise<EntityRef[]> {
  const due = await db.selectFrom('drafts').select(['entity_type', 'entity_id']).where('publish_at', '<=', now.toISOString()).orderBy('publish_at').execute();
  const published: EntityRef[] = [];
  for (const { entity_type: type, entity_id: id } of due) {
    const ed = editables(type);
    if (!ed) continue;
    const done = await refusable(db, async (trx) => {
      const claimed = await trx
        .deleteFrom('drafts')
        .where('entity_type', '=', type)
        .where('entity_id', '=', id)
        .where('publish_at', '<=', now.toISOString())
        .returningAll()
        .executeTakeFirst();
      if (!claimed) return false;
      const live = await ed.read(trx, id);
      if (!live) return false;
      await recordBaseline(trx, { type, id }, live.snapshot);
      const snapshot = ed.asPublished(JSON.parse(claimed.snapshot));
      // The editor chose this content for this date: it is published over the live item's current version.
      const result = await ed.write(trx, id, snapshot, live.version);
      if (result !== 'ok') throw new Refused(result);
      const actor: Actor = { id: claimed.saved_by_id, name: `${SCHEDULER.name} (${claimed.saved_by_name})` };
      const revision = await recordRevision(trx, { type, id }, snapshot, actor, 'publish');
      await audit(trx, actor, `${type}.publish`, live.label, { id, revision, scheduledAt: claimed.publish_at });
      return true;
    });
    if (done === true) published.push({ type, id });
    else if (done !== false) await unschedule(db, ed, id, now, done.error);
  }
  return published;
}

/** A due draft that could not be published stays a draft, without its date (the list stops saying "Programmé"). */
async function unschedule(db: DB, ed: Editable, id: string, now: Date, reason: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const kept = await trx
      .updateTable('drafts')
      .set({ publish_at: null })
      .where('entity_type', '=', ed.type)
      .where('entity_id', '=', id)
      .where('publish_at', '<=', now.toISOString())
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) !== 1) return;
    await audit(trx, SCHEDULER, `${ed.type}.schedule.failed`, (await ed.read(trx, id))?.label ?? id, { id, reason });
  });
}

/**
 * What a restore answers: 'taken' when the revision holds a value that must be unique and another
 * item has taken since (a campaign's address); nothing is written then.
 */
export type RestoreResult = PublishResult;

/** Makes revision `number` the live item again: itself a new revision, audited. */
export async function restoreRevision(db: DB, ed: Editable, id: string, number: number, version: number, actor: Actor): Promise<RestoreResult> {
  return refusable(db, async (trx) => {
    const rev = await getRevision(trx, refOf(ed, id), number);
    if (!rev) return { ok: false, error: 'notFound' } as const;
    const result = await ed.write(trx, id, rev.snapshot, version);
    if (result !== 'ok') throw new Refused(result);
    const revision = await recordRevision(trx, refOf(ed, id), rev.snapshot, actor, 'restore', revisionsKeep());
    await audit(trx, actor, `${ed.type}.restore`, (await ed.read(trx, id))?.label ?? id, { id, restored: number, revision });
    return { ok: true, revision } as const;
  });
}
