import type { Route } from './+types/donate';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('donate.title'), description: i18n.t('donate.metaDescription') }));

/** Online giving arrives with the donations issue; until a method is configured, this says so. */
export default function Donate() {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('donate.title')}</h1>
      <p className="mt-3 text-lg text-gray-700">{t('donate.intro')}</p>
      <section className="mt-10 rounded-xl border border-gray-200 p-8 text-center shadow-sm" aria-labelledby="donate-soon">
        <h2 id="donate-soon" className="text-2xl font-bold">{t('donate.soon')}</h2>
        <p className="mt-3 text-gray-700">{t('donate.soonText')}</p>
        <ButtonLink to="/contact" variant="secondary" className="mt-6">
          {t('donate.contactUs')}
        </ButtonLink>
      </section>
    </div>
  );
}
