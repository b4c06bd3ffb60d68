import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { readSettingDocument, saveSettingDocument } from '~/lib/settings-document.server';
import { EMPTY_SITE_SETTINGS, siteSettingsSchema, type SiteSettings } from './site-settings';

export const SITE_SETTINGS_KEY = 'site';

/** Built once: zod compiles a schema when it is made, which cost more than the rest of a page's loaders. */
const storedSettingsSchema = siteSettingsSchema.partial();
/** The last stored document and its parse: every page reads the settings, they rarely change. */
let lastParsed: { raw: string; settings: SiteSettings } | undefined;

/**
 * Every page reads these: the stored text is compared before anything is parsed (a settings
 * document read of its own, on the hot path, unlike the other documents' `readSettingDocument`).
 */
export async function getSiteSettings(db: DB): Promise<SiteSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SITE_SETTINGS_KEY).executeTakeFirst();
  if (!row) return { ...EMPTY_SITE_SETTINGS };
  if (lastParsed?.raw !== row.value) {
    const parsed = storedSettingsSchema.safeParse(JSON.parse(row.value));
    lastParsed = { raw: row.value, settings: Object.freeze({ ...EMPTY_SITE_SETTINGS, ...(parsed.success ? parsed.data : {}) }) };
  }
  return { ...lastParsed.settings };
}

// ---- Back office -------------------------------------------------------------------------------

export async function getEditableSiteSettings(db: DB): Promise<{ settings: SiteSettings; version: number }> {
  return { settings: await getSiteSettings(db), version: (await readSettingDocument(db, SITE_SETTINGS_KEY)).version };
}

/** Saves the whole document if nobody saved it since `version` was read (0: never saved). */
export async function saveSiteSettings(db: DB, actor: Actor, settings: SiteSettings, version: number): Promise<'ok' | 'conflict'> {
  const before = await getSiteSettings(db);
  const changed = (Object.keys(settings) as (keyof SiteSettings)[]).filter((k) => settings[k] !== before[k]);
  return db.transaction().execute(async (trx) => {
    if ((await saveSettingDocument(trx, SITE_SETTINGS_KEY, settings, version)) !== 'ok') return 'conflict';
    await audit(trx, actor, 'settings.update', 'Paramètres du site', { changed });
    return 'ok';
  });
}
