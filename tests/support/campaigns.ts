import type { CampaignInput } from '~/domain/campaigns/campaigns';

/** A campaign's translations: a title in each language, no summary or story. */
const titled = (fr: string, en: string, es: string): CampaignInput['translations'] => ({
  fr: { title: fr, summary: '', story: '' },
  en: { title: en, summary: '', story: '' },
  es: { title: es, summary: '', story: '' },
});

/** An active campaign titled in the three languages, without goal, dates, project or suggested amounts unless `over` sets them. */
export const campaignInput = (slug: string, titles: [fr: string, en: string, es: string], over: Partial<CampaignInput> = {}): CampaignInput => ({
  slug,
  status: 'active',
  image: '',
  goalCents: null,
  startsOn: null,
  endsOn: null,
  projectId: null,
  translations: titled(...titles),
  amounts: [],
  ...over,
});
