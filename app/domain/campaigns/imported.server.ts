/**
 * Campaigns an import brings (issue 43, ADR 036): a campaign named by a file and not found here is
 * created ended — the past appeal its gifts went to, never an open one on the public site — through
 * the one save path, inside the import's batch transaction; taken back by the import's undo only
 * while nothing else uses it (no other gift names it, nobody edited it since).
 */
import type { DB } from '~db/index';
import type { Actor } from '~/domain/audit/audit.server';
import { LANGS, type Lang } from '~/lib/i18n';
import { slugify, type CampaignInput, type CampaignTranslation } from './campaigns';
import { deleteCampaignIn, saveCampaignIn } from './campaigns.server';

/** Creates an ended campaign titled as the file names it (every language), at a free address; answers its id. */
export async function createEndedCampaign(trx: DB, actor: Actor, title: string): Promise<string> {
  const name = title.replace(/\s+/g, ' ').trim().slice(0, 200);
  const base = slugify(name).slice(0, 70).replace(/-+$/, '') || 'campagne-importee';
  const translations = Object.fromEntries(LANGS.map((l) => [l, { title: name, summary: '', story: '' }])) as Record<Lang, CampaignTranslation>;
  for (let n = 1; ; n++) {
    const input: CampaignInput = { slug: n === 1 ? base : `${base}-${n}`, status: 'ended', image: '', goalCents: null, startsOn: null, endsOn: null, projectId: null, translations, amounts: [] };
    const saved = await saveCampaignIn(trx, actor, null, input);
    if ('campaign' in saved) return saved.campaign.id;
    if (saved.error !== 'slugTaken' || n >= 100) throw new Error(`Campaign "${name}" could not be created: ${saved.error}`);
  }
}

/** Deletes a campaign an import created, unless a gift names it or it was edited since (version past 1); true when deleted. */
export async function deleteUnusedCampaign(trx: DB, actor: Actor, id: string): Promise<boolean> {
  const row = await trx.selectFrom('campaigns').select('version').where('id', '=', id).executeTakeFirst();
  if (!row || Number(row.version) !== 1) return false;
  const used = await trx.selectFrom('donations').select('id').where('campaign_id', '=', id).executeTakeFirst();
  if (used) return false;
  return Boolean(await deleteCampaignIn(trx, actor, id));
}
