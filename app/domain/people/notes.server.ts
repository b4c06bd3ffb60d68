/**
 * Staff's notes and tags on a record (ADR 038). A note keeps who wrote it and when; a tag is
 * created the first time it is typed (one tag per name, whatever its case and accents), renamed, or
 * merged into another (its records then carry the other). Notes are personal data: the donor's own
 * export includes them (donors/personal-data.server.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { sortName } from './keys';
import { NOTE_MAX, TAG_MAX } from './notes';


export interface Note {
  id: string;
  body: string;
  authorName: string;
  authorId: string | null;
  createdAt: string;
}

export async function notesOf(db: DB, personId: string): Promise<Note[]> {
  const rows = await db.selectFrom('person_notes').selectAll().where('person_id', '=', personId).orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, body: r.body, authorName: r.author_name, authorId: r.author_id, createdAt: r.created_at }));
}

export type NoteResult = { ok: true } | { ok: false; error: string };

export async function addNote(db: DB, actor: Actor, personId: string, body: string, now = new Date()): Promise<NoteResult> {
  const text = body.trim();
  if (!text) return { ok: false, error: 'Écrivez la note.' };
  if (text.length > NOTE_MAX) return { ok: false, error: `Une note tient en ${NOTE_MAX} caractères au plus.` };
  const person = await db.selectFrom('people').select('id').where('id', '=', personId).where('merged_into', 'is', null).executeTakeFirst();
  if (!person) return { ok: false, error: 'Cette fiche est introuvable.' };
  await db.insertInto('person_notes').values({ id: randomUUID(), person_id: personId, body: text, author_id: actor.id, author_name: actor.name, created_at: now.toISOString() }).execute();
  return { ok: true };
}

/** A note deleted by its author or an Admin. */
export async function deleteNote(db: DB, actor: Actor, isAdmin: boolean, personId: string, noteId: string): Promise<boolean> {
  let q = db.deleteFrom('person_notes').where('id', '=', noteId).where('person_id', '=', personId);
  if (!isAdmin) q = q.where('author_id', '=', actor.id ?? '');
  const r = await q.executeTakeFirst();
  const done = Number(r.numDeletedRows) > 0;
  if (done) await audit(db, actor, 'person.note_delete', personId, {});
  return done;
}

export interface Tag {
  id: string;
  name: string;
  count: number;
}

export const tagKey = (name: string) => sortName(name);

export async function listTags(db: DB): Promise<Tag[]> {
  const rows = await db
    .selectFrom('tags as t')
    .leftJoin('person_tags as pt', 'pt.tag_id', 't.id')
    .select(['t.id', 't.name', sql<number>`count(pt.person_id)`.as('n')])
    .groupBy(['t.id', 't.name'])
    .orderBy('t.name')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, count: Number(r.n) }));
}

export async function tagsOfPerson(db: DB, personId: string): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('person_tags as pt').innerJoin('tags as t', 't.id', 'pt.tag_id').select(['t.id', 't.name']).where('pt.person_id', '=', personId).orderBy('t.name').execute();
}

function checkName(name: string): string | null {
  const n = name.trim();
  if (!tagKey(n)) return 'Donnez un nom à l’étiquette (des lettres ou des chiffres).';
  if (n.length > TAG_MAX) return `Une étiquette tient en ${TAG_MAX} caractères au plus.`;
  return null;
}

/** Puts a tag on a record, creating the tag the first time its name is typed. */
export async function tagPerson(db: DB, personId: string, name: string, now = new Date()): Promise<NoteResult> {
  const error = checkName(name);
  if (error) return { ok: false, error };
  return db.transaction().execute(async (trx) => {
    const person = await trx.selectFrom('people').select('id').where('id', '=', personId).where('merged_into', 'is', null).executeTakeFirst();
    if (!person) return { ok: false as const, error: 'Cette fiche est introuvable.' };
    const key = tagKey(name);
    await trx.insertInto('tags').values({ id: randomUUID(), name: name.trim(), name_key: key, created_at: now.toISOString() }).onConflict((oc) => oc.column('name_key').doNothing()).execute();
    const tag = (await trx.selectFrom('tags').select('id').where('name_key', '=', key).executeTakeFirst())!;
    await trx.insertInto('person_tags').values({ person_id: personId, tag_id: tag.id }).onConflict((oc) => oc.columns(['person_id', 'tag_id']).doNothing()).execute();
    return { ok: true as const };
  });
}

export async function untagPerson(db: DB, personId: string, tagId: string): Promise<void> {
  await db.deleteFrom('person_tags').where('person_id', '=', personId).where('tag_id', '=', tagId).execute();
}

/** Renames a tag; a name another tag has already is refused (merge them instead). */
export async function renameTag(db: DB, actor: Actor, tagId: string, name: string): Promise<NoteResult> {
  const error = checkName(name);
  if (error) return { ok: false, error };
  const other = await db.selectFrom('tags').select('id').where('name_key', '=', tagKey(name)).where('id', '<>', tagId).executeTakeFirst();
  if (other) return { ok: false, error: 'Une autre étiquette porte déjà ce nom : fusionnez-les.' };
  const r = await db.updateTable('tags').set({ name: name.trim(), name_key: tagKey(name) }).where('id', '=', tagId).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return { ok: false, error: 'Cette étiquette est introuvable.' };
  await audit(db, actor, 'tag.rename', tagId, { name: name.trim() });
  return { ok: true };
}

/** Merges tag `fromId` into `intoId`: every record that had the first has the second, the first is gone. */
export async function mergeTags(db: DB, actor: Actor, fromId: string, intoId: string): Promise<NoteResult> {
  if (fromId === intoId) return { ok: false, error: 'Choisissez une autre étiquette.' };
  return db.transaction().execute(async (trx) => {
    const both = await trx.selectFrom('tags').select(['id', 'name']).where('id', 'in', [fromId, intoId]).execute();
    if (both.length !== 2) return { ok: false as const, error: 'Cette étiquette est introuvable.' };
    const holders = (await trx.selectFrom('person_tags').select('person_id').where('tag_id', '=', fromId).execute()).map((r) => r.person_id);
    if (holders.length) {
      await trx.insertInto('person_tags').values(holders.map((person_id) => ({ person_id, tag_id: intoId }))).onConflict((oc) => oc.columns(['person_id', 'tag_id']).doNothing()).execute();
    }
    await trx.deleteFrom('person_tags').where('tag_id', '=', fromId).execute();
    await trx.deleteFrom('tags').where('id', '=', fromId).execute();
    await audit(trx, actor, 'tag.merge', intoId, { from: both.find((t) => t.id === fromId)!.name, records: holders.length });
    return { ok: true as const };
  });
}
