import type { DB } from '~db/index';
import { readSettingDocument } from '~/lib/settings-document.server';

/**
 * The settings document of the accounting export (ADR 034), key 'accounting': its chart screen
 * sets the fiscal year's first month. Named here, in the leaf, so that the receipts' declaration
 * reads the month without importing the accounting area (which imports the receipts').
 */
export const ACCOUNTING_SETTINGS_KEY = 'accounting';

/** The month (1–12) the fiscal year opens in: the accounting settings', January when unset or not a month. */
export async function fiscalStartMonth(db: DB): Promise<number> {
  const { value } = await readSettingDocument(db, ACCOUNTING_SETTINGS_KEY);
  const raw = (value as { fiscalStartMonth?: unknown } | undefined)?.fiscalStartMonth;
  const month = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isInteger(month) && month >= 1 && month <= 12 ? month : 1;
}
