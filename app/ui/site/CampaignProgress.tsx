import { daysLeft, progressPercent } from '~/domain/campaigns/campaigns';
import { formatMoney } from '~/lib/currency';
import type { ImageInfo } from '~/domain/media/media';
import { useI18n } from '~/lib/i18n';
import { Img } from '~/ui/primitives/Img';
import { SiteLink } from '~/ui/primitives/links';

export interface CampaignSummary {
  slug: string;
  title: string;
  summary: string;
  image: ImageInfo | undefined;
  goalCents: number | null;
  raisedCents: number;
  donors: number;
  endsOn: string | null;
  closed: string | null;
}

/**
 * Raised amount, goal and a real <progress> (its text equivalent next to it), donors and days
 * left: the same block on the campaign page, the list, the home and the projects page.
 */
export function CampaignProgress({ c, today, id }: { c: Pick<CampaignSummary, 'goalCents' | 'raisedCents' | 'donors' | 'endsOn' | 'closed'>; today: string; id: string }) {
  const { t, lang } = useI18n();
  const percent = progressPercent(c.raisedCents, c.goalCents);
  const left = c.closed ? null : daysLeft(c.endsOn, today);
  return (
    <div className="space-y-2" data-testid="campaign-progress">
      <p>
        <strong className="text-2xl font-extrabold text-gray-900" data-testid="campaign-raised">
          {t('campaigns.raised', { amount: formatMoney(c.raisedCents, 'EUR', lang) })}
        </strong>{' '}
        {c.goalCents !== null && <span className="text-gray-700">{t('campaigns.goal', { amount: formatMoney(c.goalCents, 'EUR', lang) })}</span>}
      </p>
      {percent !== null && (
        <>
          <progress id={id} max={100} value={percent} aria-label={t('campaigns.progressLabel')} aria-describedby={`${id}-text`} className="campaign-progress h-3 w-full" />
          <p id={`${id}-text`} className="text-sm font-medium text-gray-800">
            {t('campaigns.progressText', { percent })}
          </p>
        </>
      )}
      <p className="text-sm text-gray-700">
        {c.donors === 1 ? t('campaigns.donorsOne') : t('campaigns.donorsMany', { count: c.donors })}
        {left !== null && <> · {left === 1 ? t('campaigns.lastDay') : t('campaigns.daysLeft', { days: left })}</>}
      </p>
    </div>
  );
}

/** A campaign as a card linking to its page. */
export function CampaignCard({ c, today, headingLevel = 2 }: { c: CampaignSummary; today: string; headingLevel?: 2 | 3 }) {
  const { t } = useI18n();
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-200 wrap-anywhere" data-testid="campaign-card">
      <Img image={c.image} alt="" sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" className="aspect-[3/2] w-full object-cover" />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <H className="text-xl font-bold">
          <SiteLink to={`/campagnes/${encodeURIComponent(c.slug)}`} className="underline-offset-4 hover:underline">
            {c.title}
          </SiteLink>
        </H>
        {c.summary && <p className="text-gray-700">{c.summary}</p>}
        <CampaignProgress c={c} today={today} id={`progress-${c.slug}`} />
        <SiteLink to={`/campagnes/${encodeURIComponent(c.slug)}`} className="mt-auto inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          {t('campaigns.readMore')}
          <span className="sr-only"> : {c.title}</span>
        </SiteLink>
      </div>
    </article>
  );
}
