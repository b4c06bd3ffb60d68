/** The membership's general settings: a document in `settings` (key 'membership'), saved whole with its version. */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { DEFAULT_MEMBERSHIP_SETTINGS, type MembershipSettings } from './forms';

export const MEMBERSHIP_SETTINGS_KEY = 'membership';

export async function getMembershipSettings(db: DB): Promise<MembershipSettings & { version: number }> {
  const { value, version } = await readSettingDocument(db, MEMBERSHIP_SETTINGS_KEY);
  return { ...DEFAULT_MEMBERSHIP_SETTINGS, ...(value as Partial<MembershipSettings> | undefined), version };
}

/** Saves the whole document if nobody saved it since `version` was read (0: never saved); audited. */
export async function saveMembershipSettings(db: DB, actor: Actor, settings: MembershipSettings, version: number): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    if ((await saveSettingDocument(trx, MEMBERSHIP_SETTINGS_KEY, settings, version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'membership.settings', 'Adhésions : paramètres', { ...settings });
    return 'ok';
  });
}
