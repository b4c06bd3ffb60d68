/**
 * Whether Éditeurs may type gifts received by post or at the bank (ADR 028): a document in
 * `settings` (key 'offline-gifts'), off until an Admin turns it on, audited. Read by the back
 * office's gate (app/routes/admin/auth.server.ts) only for the paths of this area.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, putSettingDocument } from '~/lib/settings-document.server';

export const OFFLINE_GIFTS_SETTINGS_KEY = 'offline-gifts';

export interface OfflineGiftSettings {
  /** Éditeurs may open the batches, type gifts and download the deposit slips (taking back, depositing and reconciling stay an Admin's). */
  editorsMayRecord: boolean;
}

export async function getOfflineGiftSettings(db: DB): Promise<OfflineGiftSettings> {
  const { value } = await readSettingDocument(db, OFFLINE_GIFTS_SETTINGS_KEY);
  return { editorsMayRecord: (value as Partial<OfflineGiftSettings> | undefined)?.editorsMayRecord === true };
}

export async function setEditorsMayRecord(db: DB, actor: Actor, on: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await putSettingDocument(trx, OFFLINE_GIFTS_SETTINGS_KEY, { editorsMayRecord: on } satisfies OfflineGiftSettings);
    await audit(trx, actor, 'offline-gifts.settings', on ? 'Chèques et virements : ouverts aux Éditeurs' : 'Chèques et virements : réservés aux Admins', { editorsMayRecord: on });
  });
}
