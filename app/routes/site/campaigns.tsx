import type { Route } from './+types/campaigns';
import { today } from '~/domain/content/forms';
import { useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageMeta } from '~/lib/page-meta';
import { CampaignCard } from '~/ui/site/CampaignProgress';
import { openCampaigns, publishedImages } from './published.server';

/** /campagnes: the campaigns open to gifts, with their progress (server-rendered, cached). */
export async function loader({ request }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const day = today();
  const campaigns = await openCampaigns(lang, day);
  const images = await publishedImages(campaigns.map((c) => c.image));
  return { day, campaigns: campaigns.map((c) => ({ slug: c.slug, title: c.title, summary: c.summary, image: images.get(c.image), goalCents: c.goalCents, raisedCents: c.raisedCents, donors: c.donors, endsOn: c.endsOn, closed: c.closed })) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, (i18n) => ({ title: i18n.t('campaigns.title'), description: i18n.t('campaigns.metaDescription') }));

export default function Campaigns({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('campaigns.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('campaigns.intro')}</p>
      {loaderData.campaigns.length === 0 ? (
        <p className="mt-10 text-gray-700">{t('campaigns.empty')}</p>
      ) : (
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.campaigns.map((c) => (
            <li key={c.slug}>
              <CampaignCard c={c} today={loaderData.day} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
