import type { Route } from './+types/member';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { CheckList } from '~/ui/site/CheckList';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { publishedSettings } from './published.server';

export async function loader() {
  const settings = await publishedSettings();
  return { membershipFormUrl: settings.membershipFormUrl };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('member.title'), description: i18n.t('member.metaDescription') }));

const BENEFITS: MessageKey[] = ['member.benefit1', 'member.benefit2', 'member.benefit3', 'member.benefit4'];

export default function Member({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('member.title')}</p>
      <h1 className="mt-2 text-4xl font-extrabold">{t('member.heading')}</h1>
      <p className="mt-3 text-lg text-gray-700">{t('member.intro')}</p>
      <section aria-labelledby="benefits" className="mt-10">
        <h2 id="benefits" className="text-2xl font-bold">{t('member.benefitsTitle')}</h2>
        <CheckList items={BENEFITS.map((k) => t(k))} tone="outlined" />
      </section>
      <div className="mt-10">
        {loaderData.membershipFormUrl ? (
          <a href={loaderData.membershipFormUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('primary')}>
            {t('member.download')} <span className="sr-only">{t('member.newTab')}</span>
          </a>
        ) : (
          <button
            type="button"
            className={buttonClass('primary')}
            data-toast-title={t('member.unavailable')}
            data-toast-description={t('member.unavailableText')}
            data-toast-variant="destructive"
            aria-describedby="member-unavailable"
          >
            {t('member.download')}
          </button>
        )}
        {!loaderData.membershipFormUrl && (
          <p id="member-unavailable" className="mt-3 text-sm text-gray-700">
            {t('member.unavailable')}
          </p>
        )}
      </div>
    </div>
  );
}
