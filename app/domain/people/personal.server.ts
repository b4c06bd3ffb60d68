/**
 * What the register keeps about a person, in their own export and at their erasure (ADR 038,
 * ADR 013). Notes and tags are personal data: the export of an address gives the notes and tags of
 * its record (text and date; the author, a member of staff, is not the donor's data). Erasing an
 * address removes it from its record; erasing a record's last address removes the record, its
 * notes, its tags and the merges that name it.
 */
import type { DB } from '~db/index';
import { emailKey } from './keys';
import { refreshPeople } from './figures.server';

export interface PersonalRecord {
  tags: string[];
  notes: { createdAt: string; text: string }[];
}

/** The record of this address, as its owner receives it; null when the register does not know it. */
export async function personalRecordOf(db: DB, email: string): Promise<PersonalRecord | null> {
  const pe = await db.selectFrom('person_emails').select('person_id').where('email', '=', emailKey(email)).executeTakeFirst();
  if (!pe) return null;
  const tags = await db.selectFrom('person_tags as pt').innerJoin('tags as t', 't.id', 'pt.tag_id').select('t.name').where('pt.person_id', '=', pe.person_id).orderBy('t.name').execute();
  const notes = await db.selectFrom('person_notes').select(['created_at', 'body']).where('person_id', '=', pe.person_id).orderBy('created_at').execute();
  return { tags: tags.map((t) => t.name), notes: notes.map((n) => ({ createdAt: n.created_at, text: n.body })) };
}

/** The export's CSV lines of the record: one per note, one for the tags. */
export function personalRecordCsv(r: PersonalRecord | null, email: string) {
  if (!r) return [];
  return [...r.notes.map((n) => ({ record: 'staff_note', date: n.createdAt, email, details: n.text })), ...(r.tags.length ? [{ record: 'tags', email, details: r.tags.join(' | ') }] : [])];
}

/** An address erased (inside the erasure's transaction): out of its record, and the record gone with its last address. */
export async function forgetEmail(trx: DB, email: string): Promise<void> {
  const key = emailKey(email);
  const pe = await trx.selectFrom('person_emails').select('person_id').where('email', '=', key).executeTakeFirst();
  if (!pe) return;
  await trx.deleteFrom('person_emails').where('email', '=', key).execute();
  const left = await trx.selectFrom('person_emails').select('email').where('person_id', '=', pe.person_id).executeTakeFirst();
  if (left) return refreshPeople(trx, [pe.person_id]);
  const ids = [pe.person_id, ...(await trx.selectFrom('people').select('id').where('merged_into', '=', pe.person_id).execute()).map((p) => p.id)];
  await trx.deleteFrom('person_notes').where('person_id', 'in', ids).execute();
  await trx.deleteFrom('person_tags').where('person_id', 'in', ids).execute();
  await trx.deleteFrom('person_years').where('person_id', 'in', ids).execute();
  await trx.deleteFrom('person_merges').where((eb) => eb.or([eb('survivor_id', 'in', ids), eb('merged_id', 'in', ids)])).execute();
  await trx.deleteFrom('person_pair_dismissals').where((eb) => eb.or([eb('a_id', 'in', ids), eb('b_id', 'in', ids)])).execute();
  await trx.deleteFrom('people').where('id', 'in', ids).execute();
}
