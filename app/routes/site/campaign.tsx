import { data } from 'react-router';
import type { Route } from './+types/campaign';
import { CAMPAIGN_TYPE, campaignIdAt, getPublicCampaign } from '~/domain/campaigns/campaigns.server';
import { previewCampaign } from '~/domain/campaigns/preview.server';
import { today } from '~/domain/content/forms';
import { formatMoney } from '~/lib/currency';
import { useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { CampaignProgress } from '~/ui/site/CampaignProgress';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { previewFor, previewParam } from './preview.server';
import { publishedImage } from './published.server';
import { SiteLink } from '~/ui/primitives/links';

/** /campagnes/{slug}: story, raised amount, donors, goal and progress, days left, and the way to give. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const day = today();
  // The draft is found by id (its address may be changing); looked up only when a preview is asked.
  const id = previewParam(request) === null ? undefined : await campaignIdAt(db(), params.slug);
  const { preview, headers } = await previewFor(request, context, id === undefined ? null : { type: CAMPAIGN_TYPE, id }, 'campaigns');
  const c = preview ? await previewCampaign(db(), id!, lang, day) : await getPublicCampaign(db(), params.slug, lang, day);
  if (!c) return data({ day, campaign: null, preview: false }, { status: 404, headers });
  return data({ day, campaign: { ...c, image: await publishedImage(c.image) }, preview }, { headers });
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => {
    const c = args.loaderData?.campaign;
    if (!c) return { title: i18n.t('notFound.title'), description: i18n.t('notFound.text') };
    return { title: c.title, description: c.summary || i18n.t('campaigns.metaDescription'), image: c.image?.src, preview: args.loaderData?.preview };
  });

export default function CampaignPage({ loaderData }: Route.ComponentProps) {
  const { t, lang, formatDate } = useI18n();
  const c = loaderData.campaign;
  if (!c) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
        <h1 className="text-3xl font-bold">{t('notFound.title')}</h1>
        <p className="mt-4 text-gray-700">{t('notFound.text')}</p>
        <ButtonLink to="/campagnes" className="mt-8">
          {t('campaigns.all')}
        </ButtonLink>
      </div>
    );
  }
  const giveHref = `/faire-un-don?campagne=${encodeURIComponent(c.slug)}` as const;
  return (
    <article className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      <SiteLink to="/campagnes" className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 underline">
        <span aria-hidden="true">←</span> {t('campaigns.all')}
      </SiteLink>
      <div className="mt-6 grid gap-10 lg:grid-cols-[3fr_2fr]">
        {/* What editors write may hold a word longer than a phone's screen (an address): it wraps rather than widening the page. */}
        <div className="wrap-anywhere">
          <h1 className="text-4xl font-extrabold leading-tight">{c.title}</h1>
          {c.summary && <p className="mt-4 text-xl text-gray-700">{c.summary}</p>}
          <Img image={c.image} alt="" priority sizes="(min-width: 1024px) 600px, 100vw" className="mt-8 max-h-[480px] w-full rounded-xl object-cover" />
          <RichText html={c.story} className="mt-8 text-lg text-gray-800" />
        </div>
        <aside aria-labelledby="campaign-support" className="h-fit space-y-5 rounded-xl border border-gray-200 p-6 shadow-sm lg:sticky lg:top-24">
          <h2 id="campaign-support" className="sr-only">
            {t('campaigns.progressLabel')}
          </h2>
          <CampaignProgress c={c} today={loaderData.day} id="campaign-progress" />
          {c.closed === 'ended' && <p className="font-medium text-gray-900">{t('campaigns.ended')}</p>}
          {c.closed === 'notStarted' && c.startsOn && <p className="font-medium text-gray-900">{t('campaigns.notStarted', { date: formatDate(c.startsOn) })}</p>}
          {c.closed === null && (
            <>
              {c.amounts.length > 0 && (
                <div>
                  <h3 className="font-semibold">{t('campaigns.impactTitle')}</h3>
                  <ul className="mt-2 space-y-1 text-gray-800">
                    {c.amounts.map((a) => (
                      <li key={a.cents}>
                        <strong>{formatMoney(a.cents, 'EUR', lang)}</strong>
                        {a.impact && <> — {a.impact}</>}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <ButtonLink to={giveHref} className="w-full justify-center">
                {t('campaigns.give')}
              </ButtonLink>
            </>
          )}
        </aside>
      </div>
    </article>
  );
}
