import type { Route } from './+types/payment-success';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { donationDeps } from '~/domain/donations/deps.server';
import { payerReturn } from '~/domain/donations/returns.server';
import { formatMoney } from '~/lib/currency';
import { detectLang } from '~/lib/i18n.server';

/**
 * Asks the payment's provider (never the query string) whether the gift went through, by the one
 * road back (returns.server.ts): the confirmed amount is shown only for a donation the ledger holds
 * as succeeded; a provider that cannot be asked leaves it "not confirmed".
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const { payment, unconfirmed } = await payerReturn(await donationDeps(request), new URL(request.url).searchParams);
  if (!payment) return { state: 'unknown' as const, amount: null, emailed: false };
  // An email is promised only to a gift that has an address to send it to.
  const emailed = !unconfirmed && Boolean(payment.donor_email);
  if (payment.status === 'succeeded') return { state: 'confirmed' as const, amount: formatMoney(payment.amount_minor, payment.currency, lang), emailed };
  // A SEPA mandate signed: the debit takes a few days (ADR 029).
  if (payment.status === 'processing') return { state: 'processing' as const, amount: null, emailed };
  return { state: 'pending' as const, amount: null, emailed };
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
        {loaderData.state === 'processing'
          ? t(loaderData.emailed ? 'payment.processingText' : 'payment.processingTextNoEmail')
          : loaderData.state === 'pending'
          ? t(loaderData.emailed ? 'payment.pendingText' : 'payment.pendingTextNoEmail')
          : t(loaderData.emailed ? 'payment.successText' : 'payment.successTextNoEmail')}
      </p>
      <ButtonLink to="/" className="mt-8">
        {t('payment.backHome')}
      </ButtonLink>
    </div>
  );
}
