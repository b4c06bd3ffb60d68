import type { Route } from './+types/payment-success';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('payment.successTitle'), description: i18n.t('payment.successText') })),
  { name: 'robots', content: 'noindex' },
];

export default function PaymentSuccess() {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto h-16 w-16 text-green-700" fill="none" stroke="currentColor" strokeWidth="2"><circle cx="12" cy="12" r="10" /><path d="M7 12l3 3 7-7" /></svg>
      <h1 className="mt-6 text-4xl font-extrabold">{t('payment.successTitle')}</h1>
      <p className="mt-4 text-lg text-gray-700">{t('payment.successText')}</p>
      <ButtonLink to="/" className="mt-8">
        {t('payment.backHome')}
      </ButtonLink>
    </div>
  );
}
