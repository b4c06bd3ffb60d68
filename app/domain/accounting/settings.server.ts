import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { getReceiptSettings } from '~/domain/receipts/settings.server';
import { ACCOUNTING_SETTINGS_KEY } from '~/domain/fiscal-year/start-month.server';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { isSiren, settingsFrom, type AccountingSettings } from './chart';

/** The accounting export's settings (ADR 034): one document in `settings`, key 'accounting' (named in the fiscal-year leaf, which reads its month), versioned, each save audited. */
export { ACCOUNTING_SETTINGS_KEY };

export async function getAccountingSettings(db: DB): Promise<AccountingSettings & { version: number }> {
  const { value, version } = await readSettingDocument(db, ACCOUNTING_SETTINGS_KEY);
  return { ...settingsFrom(value), version };
}

/** The SIREN the FEC is named after: the chart's own, else the receipts' registration when it is one; null when neither. */
export async function sirenFor(db: DB, settings: AccountingSettings): Promise<string | null> {
  if (settings.siren) return settings.siren;
  const registration = (await getReceiptSettings(db)).registration;
  return isSiren(registration) ? registration : null;
}

/** Saves the whole document if nobody saved it since `version` was read (0: never saved), with its audit line. */
export async function saveAccountingSettings(db: DB, actor: Actor, settings: AccountingSettings, version: number): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    if ((await saveSettingDocument(trx, ACCOUNTING_SETTINGS_KEY, settings, version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'accounting.settings', 'Plan comptable et exercice', { fiscalStartMonth: settings.fiscalStartMonth, siren: settings.siren });
    return 'ok';
  });
}
