import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { EMPTY_RECEIPT_SETTINGS, receiptSettingsSchema, receiptsActive, type ReceiptSettings } from './settings';

export const RECEIPT_SETTINGS_KEY = 'receipts';

export async function getReceiptSettings(db: DB): Promise<ReceiptSettings & { version: number }> {
  const { value, version } = await readSettingDocument(db, RECEIPT_SETTINGS_KEY);
  const parsed = receiptSettingsSchema.partial().safeParse(value ?? {});
  return { ...EMPTY_RECEIPT_SETTINGS, ...(parsed.success ? parsed.data : {}), version };
}

/** Saves the whole document if nobody saved it since `version` was read (0: never saved). */
export async function saveReceiptSettings(db: DB, actor: Actor, settings: ReceiptSettings, version: number): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    if ((await saveSettingDocument(trx, RECEIPT_SETTINGS_KEY, settings, version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'receipts.settings', 'Reçus fiscaux', { enabled: settings.enabled });
    return 'ok';
  });
}

/** What the donate and hand-typed gift forms offer: the receipt's details (receipts on and complete), and the IFI option when the foundation is eligible too. */
export async function receiptOffer(db: DB): Promise<{ receipts: boolean; ifi: boolean }> {
  const s = await getReceiptSettings(db);
  const receipts = receiptsActive(s);
  return { receipts, ifi: receipts && s.ifiEligible };
}

/** Whether the donate form asks for the receipt's details (receipts on and complete). */
export async function receiptsOffered(db: DB): Promise<boolean> {
  return receiptsActive(await getReceiptSettings(db));
}
