/**
 * The settings of gifts received by post or at the bank (ADR 028), one document in `settings`
 * (key 'offline-gifts'), each change audited: whether Éditeurs may type them (off until an Admin
 * turns it on; read by the back office's gate, app/routes/admin/auth.server.ts, only for the paths
 * of this area), and the bank account the cheques are deposited to, printed on the deposit slip.
 */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, putSettingDocument } from '~/lib/settings-document.server';
import { friendlyIban, type DepositAccount } from './forms';

export const OFFLINE_GIFTS_SETTINGS_KEY = 'offline-gifts';

export interface OfflineGiftSettings {
  /** Éditeurs may open the batches, type gifts and download the deposit slips (taking back, depositing and reconciling stay an Admin's). */
  editorsMayRecord: boolean;
  /** The account cheques are deposited to (its IBAN in electronic form, checked), or null while none is set. */
  depositAccount: DepositAccount | null;
}

export async function getOfflineGiftSettings(db: DB): Promise<OfflineGiftSettings> {
  const { value } = await readSettingDocument(db, OFFLINE_GIFTS_SETTINGS_KEY);
  const v = value as Partial<OfflineGiftSettings> | undefined;
  return { editorsMayRecord: v?.editorsMayRecord === true, depositAccount: v?.depositAccount ?? null };
}

/** Changes one setting, the others kept, in one transaction with its audit line. */
async function change(db: DB, actor: Actor, patch: Partial<OfflineGiftSettings>, summary: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await getOfflineGiftSettings(trx);
    await putSettingDocument(trx, OFFLINE_GIFTS_SETTINGS_KEY, { ...current, ...patch } satisfies OfflineGiftSettings);
    await audit(trx, actor, 'offline-gifts.settings', summary, patch);
  });
}

export async function setEditorsMayRecord(db: DB, actor: Actor, on: boolean): Promise<void> {
  await change(db, actor, { editorsMayRecord: on }, on ? 'Chèques et virements : ouverts aux Éditeurs' : 'Chèques et virements : réservés aux Admins');
}

/** Sets (or, with null, removes) the account the cheques are deposited to. */
export async function setDepositAccount(db: DB, actor: Actor, account: DepositAccount | null): Promise<void> {
  await change(db, actor, { depositAccount: account }, account ? `Compte de remise des chèques : ${account.holder}, ${friendlyIban(account.iban)}` : 'Compte de remise des chèques retiré');
}
