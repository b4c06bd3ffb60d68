import type { DB } from '~db/index';

/**
 * Settings documents: one JSON value per key in the `settings` table (the site's settings, the
 * payment, receipt and membership settings, the letters' sender and rate, the letters' sync mark),
 * in one place (issue 39). A document an Admin edits is guarded by its version: a save made from an
 * older read is refused ('conflict') and writes nothing. A mark the app keeps for itself is written
 * whole, without a version.
 */

/** A stored document: its parsed value (undefined when unreadable) and its version (0: never saved). */
export interface SettingDocument {
  value: unknown;
  version: number;
}

/** The document under `key`, or version 0 and no value when it was never saved. */
export async function readSettingDocument(db: DB, key: string): Promise<SettingDocument> {
  const row = await db.selectFrom('settings').select(['value', 'version']).where('key', '=', key).executeTakeFirst();
  if (!row) return { value: undefined, version: 0 };
  try {
    return { value: JSON.parse(row.value) as unknown, version: row.version };
  } catch {
    // A document written by hand that is not JSON reads as never filled in, and the next save replaces it.
    return { value: undefined, version: row.version };
  }
}

/**
 * Saves a document if nobody saved it since `version` was read: version 0 inserts it (its first
 * save), any other version updates it. Run it inside the caller's transaction when an audit line
 * goes with it.
 */
export async function saveSettingDocument(db: DB, key: string, value: unknown, version: number, now = new Date()): Promise<'ok' | 'conflict'> {
  const json = JSON.stringify(value);
  const at = now.toISOString();
  if (version === 0) {
    const inserted = await db.insertInto('settings').values({ key, value: json, version: 1, updated_at: at }).onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? 'ok' : 'conflict';
  }
  const updated = await db.updateTable('settings').set({ value: json, version: version + 1, updated_at: at }).where('key', '=', key).where('version', '=', version).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? 'ok' : 'conflict';
}

/** Writes a document whole, whatever was there (a mark the app keeps for itself, a setting saved without a form's version). */
export async function putSettingDocument(db: DB, key: string, value: unknown, now = new Date()): Promise<void> {
  const json = JSON.stringify(value);
  const at = now.toISOString();
  await db
    .insertInto('settings')
    .values({ key, value: json, version: 1, updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: at }))
    .execute();
}
