import type { Route } from './+types/member-cancel';
import { cancelAttempt } from '~/domain/donations/service.server';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { donationDeps } from '~/domain/donations/deps.server';
import { ButtonLink } from '~/ui/primitives/ButtonLink';

/**
 * /devenir-membre/annule: the member came back without paying their dues. As for a gift, a pending
 * Stripe or CoinGate attempt is closed (a later verified payment still counts); the membership is
 * not active, and the page says so.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('d');
  return { state: id ? await cancelAttempt(await donationDeps(request), id) : ('cancelled' as const) };
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('join.cancelTitle'), description: i18n.t('join.cancelText') })),
  { name: 'robots', content: 'noindex' },
];

export default function MemberCancel({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('join.cancelTitle')}</h1>
      <p className="mt-4 text-lg text-gray-700" data-testid="membership-outcome">
        {t(loaderData.state === 'unconfirmed' ? 'join.unconfirmedText' : 'join.cancelText')}
      </p>
      <ButtonLink to="/devenir-membre" className="mt-8">
        {t('join.retry')}
      </ButtonLink>
    </div>
  );
}
