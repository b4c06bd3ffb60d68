import type { DB } from '~db/index';
import { EMPTY_SITE_SETTINGS, siteSettingsSchema, type SiteSettings } from './site-settings';

export const SITE_SETTINGS_KEY = 'site';

export async function getSiteSettings(db: DB): Promise<SiteSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SITE_SETTINGS_KEY).executeTakeFirst();
  if (!row) return { ...EMPTY_SITE_SETTINGS };
  const parsed = siteSettingsSchema.partial().safeParse(JSON.parse(row.value));
  return { ...EMPTY_SITE_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}
