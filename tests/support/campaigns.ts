import type { CampaignInput } from '~/domain/campaigns/campaigns';

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
