import type { DB } from '~db/index';
import type { Campaign, CampaignInput } from '~/domain/campaigns/campaigns';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';

/** A campaign's text in one language: its summary is also its story. */
export const campaignText = (title: string, summary: string) => ({ title, summary, story: `<p>${summary}</p>` });

/** Boreholes in Kaya: open now, an 8 000 € goal, no project, no suggested amounts, in the three languages. */
export const KAYA: CampaignInput = {
  slug: 'forages-kaya',
  status: 'active',
  image: '',
  goalCents: 800_000,
  startsOn: null,
  endsOn: null,
  projectId: null,
  translations: { fr: campaignText('Forages à Kaya', 'De l’eau potable'), en: campaignText('Boreholes in Kaya', 'Drinking water'), es: campaignText('Pozos en Kaya', 'Agua potable') },
  amounts: [],
};

/** Saves a campaign as `Test` (a new one when `id` is null), failing when it is refused. */
export async function saveCampaignOrThrow(db: DB, input: CampaignInput = KAYA, id: string | null = null, version = 0): Promise<Campaign> {
  const saved = await saveCampaign(db, { id: null, name: 'Test' }, id, input, version);
  if (!('campaign' in saved)) throw new Error(`campaign not saved: ${saved.error}`);
  return saved.campaign;
}

/**
 * A campaign as the back-office form saves it, reduced to what a test needs: active, titled in
 * fr, en and es, with no goal, dates, project, story or suggested amounts unless `over` says so.
 */
export function campaignInput(slug: string, titles: { fr: string; en: string; es: string }, over: Partial<CampaignInput> = {}): CampaignInput {
  const t = (title: string) => ({ title, summary: '', story: '' });
  return {
    slug,
    status: 'active',
    image: '',
    goalCents: null,
    startsOn: null,
    endsOn: null,
    projectId: null,
    translations: { fr: t(titles.fr), en: t(titles.en), es: t(titles.es) },
    amounts: [],
    ...over,
  };
}
