import type { Route } from './+types/payment-cancel';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { cancelAttempt } from '~/domain/donations/service.server';
import { donationDeps } from '~/domain/donations/deps.server';

/**
 * The donor came back without paying: a pending Stripe or CoinGate attempt is marked cancelled (a
 * later verified payment still counts). A gift another provider settles (Flutterwave, PayPal) is
 * left as it is; still pending, the page says its payment is not confirmed, not that it was cancelled.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('d');
  return { state: id ? await cancelAttempt(await donationDeps(request), id) : ('cancelled' as const) };
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('payment.cancelTitle'), description: i18n.t('payment.cancelText') })),
  { name: 'robots', content: 'noindex' },
];

export default function PaymentCancel({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const unconfirmed = loaderData.state === 'unconfirmed';
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-extrabold">{t(unconfirmed ? 'payment.unconfirmedTitle' : 'payment.cancelTitle')}</h1>
      <p className="mt-4 text-lg text-gray-700">{t(unconfirmed ? 'payment.unconfirmedText' : 'payment.cancelText')}</p>
      <ButtonLink to="/faire-un-don" className="mt-8">
        {t('payment.retry')}
      </ButtonLink>
    </div>
  );
}
