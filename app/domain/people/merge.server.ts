/**
 * Merging two records of one person, and taking a merge back (ADR 038). A merge moves the merged
 * record's addresses, notes and tags to the survivor and leaves the merged record pointing at it;
 * the gifts, receipts (and their numbers), monthly gifts, memberships, consents and subscriptions
 * are found by address, so they follow without one of their rows being written. Audited; taken
 * back while nothing new depends on it (rules.ts `undoBlocker`).
 */
import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { refreshPeople } from './figures.server';
import { mergeRefusal, plannedMove, undoBlocker, type MergeRefusal, type Moved, type UndoBlocker } from './rules';

export type MergeResult = { ok: true; mergeId: string; moved: Moved } | { ok: false; refusal: MergeRefusal };

const tagsOf = async (db: DB, personId: string) => (await db.selectFrom('person_tags').select('tag_id').where('person_id', '=', personId).execute()).map((r) => r.tag_id);

/** Merges `mergedId` into `survivorId`, in one transaction. */
export async function mergePeople(db: DB, actor: Actor, survivorId: string, mergedId: string, now = new Date()): Promise<MergeResult> {
  return db.transaction().execute(async (trx) => {
    const [survivor, merged] = await Promise.all([survivorId, mergedId].map((id) => trx.selectFrom('people').select(['id', 'merged_into', 'display_name']).where('id', '=', id).executeTakeFirst()));
    const refusal = mergeRefusal(survivor, merged);
    if (refusal) return { ok: false as const, refusal };
    const emails = (await trx.selectFrom('person_emails').select('email').where('person_id', '=', mergedId).orderBy('email').execute()).map((r) => r.email);
    const notes = (await trx.selectFrom('person_notes').select('id').where('person_id', '=', mergedId).execute()).map((r) => r.id);
    const moved = plannedMove(emails, notes, await tagsOf(trx, mergedId), await tagsOf(trx, survivorId));
    const at = now.toISOString();
    await trx.updateTable('person_emails').set({ person_id: survivorId }).where('person_id', '=', mergedId).execute();
    await trx.updateTable('person_notes').set({ person_id: survivorId }).where('person_id', '=', mergedId).execute();
    if (moved.addedTags.length) await trx.insertInto('person_tags').values(moved.addedTags.map((tag_id) => ({ person_id: survivorId, tag_id }))).execute();
    await trx.deleteFrom('person_tags').where('person_id', '=', mergedId).execute();
    await trx.updateTable('people').set({ merged_into: survivorId, updated_at: at }).where('id', '=', mergedId).execute();
    await refreshPeople(trx, [survivorId, mergedId], at);
    const mergeId = randomUUID();
    await trx.insertInto('person_merges').values({ id: mergeId, survivor_id: survivorId, merged_id: mergedId, moved: JSON.stringify(moved), by_name: actor.name, at, undone_at: null, undone_by: null }).execute();
    await audit(trx, actor, 'person.merge', survivorId, { merged: mergedId, emails: emails.length, notes: notes.length, tags: moved.tags.length });
    return { ok: true as const, mergeId, moved };
  });
}

export type UndoResult = { ok: true } | { ok: false; blocker: UndoBlocker | 'missing' };

/** Why a merge can no longer be taken back (null: it can). */
export async function undoBlockerOf(db: DB, mergeId: string): Promise<UndoBlocker | 'missing' | null> {
  const m = await db.selectFrom('person_merges').selectAll().where('id', '=', mergeId).executeTakeFirst();
  if (!m) return 'missing';
  const moved = JSON.parse(m.moved) as Moved;
  const later = await db
    .selectFrom('person_merges')
    .select('id')
    .where('at', '>', m.at)
    .where('undone_at', 'is', null)
    .where((eb) => eb.or([eb('survivor_id', 'in', [m.survivor_id, m.merged_id]), eb('merged_id', 'in', [m.survivor_id, m.merged_id])]))
    .execute();
  const survivorEmails = new Set((await db.selectFrom('person_emails').select('email').where('person_id', '=', m.survivor_id).execute()).map((r) => r.email));
  return undoBlocker(m, moved, later.length, survivorEmails, await receiptsSince(db, m.at, [...survivorEmails]));
}

/** The receipts issued since `at` to one of these addresses: for each, the addresses of the gifts it covers. */
async function receiptsSince(db: DB, at: string, emails: string[]): Promise<string[][]> {
  if (!emails.length) return [];
  const receipts = await db
    .selectFrom('receipts')
    .select('donation_ids')
    .where('issued_at', '>', at)
    .where('status', '=', 'issued')
    .where((eb) => eb(eb.fn('lower', ['donor_email']), 'in', emails))
    .execute();
  const out: string[][] = [];
  for (const r of receipts) {
    const ids = JSON.parse(r.donation_ids) as string[];
    if (!ids.length) continue;
    const gifts = await db.selectFrom('donations').select((eb) => eb.fn<string>('lower', ['donor_email']).as('email')).where('id', 'in', ids).execute();
    out.push(gifts.map((g) => g.email).filter(Boolean));
  }
  return out;
}

/** Takes a merge back: the addresses, notes and tags it moved go back to the merged record, which lives again. */
export async function undoMerge(db: DB, actor: Actor, mergeId: string, now = new Date()): Promise<UndoResult> {
  return db.transaction().execute(async (trx) => {
    const blocker = await undoBlockerOf(trx, mergeId);
    if (blocker) return { ok: false as const, blocker };
    const m = (await trx.selectFrom('person_merges').selectAll().where('id', '=', mergeId).executeTakeFirst())!;
    const moved = JSON.parse(m.moved) as Moved;
    const at = now.toISOString();
    if (moved.emails.length) await trx.updateTable('person_emails').set({ person_id: m.merged_id }).where('email', 'in', moved.emails).execute();
    if (moved.notes.length) await trx.updateTable('person_notes').set({ person_id: m.merged_id }).where('id', 'in', moved.notes).where('person_id', '=', m.survivor_id).execute();
    if (moved.addedTags.length) await trx.deleteFrom('person_tags').where('person_id', '=', m.survivor_id).where('tag_id', 'in', moved.addedTags).execute();
    // A tag merged or deleted since is not brought back.
    const still = moved.tags.length ? (await trx.selectFrom('tags').select('id').where('id', 'in', moved.tags).execute()).map((t) => t.id) : [];
    if (still.length) await trx.insertInto('person_tags').values(still.map((tag_id) => ({ person_id: m.merged_id, tag_id }))).onConflict((oc) => oc.columns(['person_id', 'tag_id']).doNothing()).execute();
    await trx.updateTable('people').set({ merged_into: null, updated_at: at }).where('id', '=', m.merged_id).execute();
    await trx.updateTable('person_merges').set({ undone_at: at, undone_by: actor.name }).where('id', '=', mergeId).execute();
    await refreshPeople(trx, [m.survivor_id, m.merged_id], at);
    await audit(trx, actor, 'person.unmerge', m.survivor_id, { merged: m.merged_id, merge: mergeId });
    return { ok: true as const };
  });
}

export interface MergeView {
  id: string;
  survivorId: string;
  mergedId: string;
  mergedName: string;
  byName: string;
  at: string;
  undoneAt: string | null;
  emails: number;
}

/** The merges a record took part in, newest first. */
export async function mergesOf(db: DB, personId: string): Promise<MergeView[]> {
  const rows = await db
    .selectFrom('person_merges as m')
    .innerJoin('people as p', 'p.id', 'm.merged_id')
    .select(['m.id', 'm.survivor_id', 'm.merged_id', 'm.by_name', 'm.at', 'm.undone_at', 'm.moved', 'p.display_name'])
    .where((eb) => eb.or([eb('m.survivor_id', '=', personId), eb('m.merged_id', '=', personId)]))
    .orderBy('m.at', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, survivorId: r.survivor_id, mergedId: r.merged_id, mergedName: r.display_name, byName: r.by_name, at: r.at, undoneAt: r.undone_at, emails: (JSON.parse(r.moved) as Moved).emails.length }));
}
