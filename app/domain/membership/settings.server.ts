/** The membership's general settings: a document in `settings` (key 'membership'), saved whole with its version. */
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { saveSettingDocument } from '~/domain/content/store.server';
import { DEFAULT_MEMBERSHIP_SETTINGS, type MembershipSettings } from './forms';

export const MEMBERSHIP_SETTINGS_KEY = 'membership';

export async function getMembershipSettings(db: DB): Promise<MembershipSettings & { version: number }> {
  const row = await db.selectFrom('settings').select(['value', 'version']).where('key', '=', MEMBERSHIP_SETTINGS_KEY).executeTakeFirst();
  if (!row) return { ...DEFAULT_MEMBERSHIP_SETTINGS, version: 0 };
  return { ...DEFAULT_MEMBERSHIP_SETTINGS, ...(JSON.parse(row.value) as Partial<MembershipSettings>), version: row.version };
}

/** Saves the whole document if nobody saved it since `version` was read (0: never saved); audited. */
export async function saveMembershipSettings(db: DB, actor: Actor, settings: MembershipSettings, version: number): Promise<'ok' | 'conflict'> {
  return db.transaction().execute(async (trx) => {
    if ((await saveSettingDocument(trx, MEMBERSHIP_SETTINGS_KEY, JSON.stringify(settings), version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'membership.settings', 'Adhésions : paramètres', { ...settings });
    return 'ok';
  });
}
