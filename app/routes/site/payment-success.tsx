import type { Route } from './+types/payment-success';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { donationDeps } from '~/domain/donations/deps.server';
import { findById } from '~/domain/donations/ledger.server';
import { formatMoney } from '~/lib/currency';
import { ProviderError } from '~/domain/donations/providers/types';
import { confirmStripeSession, recheck } from '~/domain/donations/service.server';
import { detectLang } from '~/lib/i18n.server';
import { log } from '~/lib/log.server';

const ID = /^[0-9a-f-]{36}$/;

/**
 * Asks the provider (never the query string) whether the gift went through: the confirmed amount
 * is shown only for a donation the ledger holds as succeeded.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const sessionId = url.searchParams.get('session_id') ?? '';
  const id = url.searchParams.get('d') ?? '';
  const { lang } = detectLang(request);
  try {
    const deps = await donationDeps(request);
    let donation = /^cs_\w{1,200}$/.test(sessionId) ? await confirmStripeSession(deps, sessionId) : ID.test(id) ? await findById(deps.db, id) : undefined;
    if (donation?.status === 'pending' && donation.verifiable && !donation.provider_ref.startsWith('attempt:')) {
      await recheck(deps, donation);
      donation = await findById(deps.db, donation.id);
    }
    if (!donation) return { state: 'unknown' as const, amount: null, emailed: false };
    // An email is promised only to a gift that has an address to send it to.
    const emailed = Boolean(donation.donor_email);
    if (donation.status === 'succeeded') return { state: 'confirmed' as const, amount: formatMoney(donation.amount_minor, donation.currency, lang), emailed };
    return { state: 'pending' as const, amount: null, emailed };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('success page could not confirm', { provider: e.provider, error: e.message });
    return { state: 'pending' as const, amount: null, emailed: false };
  }
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('payment.successTitle'), description: i18n.t('payment.successTextNoEmail') })),
  { name: 'robots', content: 'noindex' },
];

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto h-16 w-16 text-green-700" fill="none" stroke="currentColor" strokeWidth="2"><circle cx="12" cy="12" r="10" /><path d="M7 12l3 3 7-7" /></svg>
      <h1 className="mt-6 text-4xl font-extrabold">{t('payment.successTitle')}</h1>
      {loaderData.amount && (
        <p className="mt-4 text-2xl font-bold" data-testid="confirmed-amount">
          {t('payment.confirmedAmount', { amount: loaderData.amount })}
        </p>
      )}
      <p className="mt-4 text-lg text-gray-700" data-testid="thank-you-text">
        {loaderData.state === 'pending'
          ? t(loaderData.emailed ? 'payment.pendingText' : 'payment.pendingTextNoEmail')
          : t(loaderData.emailed ? 'payment.successText' : 'payment.successTextNoEmail')}
      </p>
      <ButtonLink to="/" className="mt-8">
        {t('payment.backHome')}
      </ButtonLink>
    </div>
  );
}
