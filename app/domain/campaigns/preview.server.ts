import type { DB } from '~db/index';
import type { Lang } from '~/lib/i18n';
import { getDraft } from '~/domain/revisions/workflow.server';
import type { CampaignInput } from './campaigns';
import { CAMPAIGN_TYPE, getCampaign, withTotals, type PublicCampaign } from './campaigns.server';

/**
 * What "Aperçu" shows of a campaign: its draft when it has one, else the campaign as saved (even
 * in "Brouillon"), as its public page shows it, with the gifts it has really received. Only for an
 * editor or a signed preview link (the route checks).
 */
export async function previewCampaign(db: DB, id: string, lang: Lang, day: string): Promise<PublicCampaign | undefined> {
  const live = await getCampaign(db, id);
  if (!live) return undefined;
  const draft = await getDraft(db, { type: CAMPAIGN_TYPE, id });
  // Its links (the gift button) keep the live address: a draft's new address is not open yet.
  const shown = draft ? { ...live, ...(draft.snapshot as unknown as CampaignInput), slug: live.slug } : live;
  return (await withTotals(db, [shown], lang, day))[0];
}
