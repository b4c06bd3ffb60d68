import { data, redirect } from 'react-router';
import type { Route } from './+types/payment-success';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink, buttonClass } from '~/ui/primitives/ButtonLink';
import { donationDeps } from '~/domain/donations/deps.server';
import { payerReturn } from '~/domain/donations/returns.server';
import { makeMonthly, monthlyOfferFor } from '~/domain/giving/make-monthly.server';
import { formatMoney } from '~/lib/currency';
import { detectLang } from '~/lib/i18n.server';
import { NO_STORE } from '~/lib/cache-headers';
import { formError } from '~/lib/form-errors.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { hostedCheckoutCsp } from './donate.server';
import { formPageHeaders } from '~/lib/action-headers';

/**
 * Asks the payment's provider (never the query string) whether the gift went through, by the one
 * road back (returns.server.ts): the confirmed amount is shown only for a donation the ledger holds
 * as succeeded; a provider that cannot be asked leaves it "not confirmed". A one-off gift by card
 * is offered to become monthly (make-monthly.server.ts): its form leads to the provider's checkout.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const deps = await donationDeps(request);
  const { payment, unconfirmed } = await payerReturn(deps, new URL(request.url).searchParams);
  if (!payment) return { state: 'unknown' as const, amount: null, emailed: false, monthly: null };
  // An email is promised only to a gift that has an address to send it to.
  const emailed = !unconfirmed && Boolean(payment.donor_email);
  const offer = unconfirmed ? null : await monthlyOfferFor(deps, runtime().secret, payment);
  const monthly = offer && { token: offer.token, same: formatMoney(offer.sameCents, 'EUR', lang), share: offer.shareCents && formatMoney(offer.shareCents, 'EUR', lang) };
  // The offer's form may lead to the card's hosted checkout, and nowhere else.
  const headers = offer ? { 'Content-Security-Policy': hostedCheckoutCsp(deps, { card: true, paypal: false, crypto: false, mobileMoney: false }) } : undefined;
  // A SEPA mandate signed: the debit takes a few days (ADR 029).
  const state = payment.status === 'succeeded' ? ('confirmed' as const) : payment.status === 'processing' ? ('processing' as const) : ('pending' as const);
  const amount = state === 'confirmed' ? formatMoney(payment.amount_minor, payment.currency, lang) : null;
  return data({ state, amount, emailed, monthly }, headers ? { headers } : undefined);
}

export const headers = (args: Route.HeadersArgs) => formPageHeaders(args);

/** The donor takes the offer: to the provider's checkout for the monthly gift, or back here with why not. */
export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = detectLang(request);
  const form = await request.formData();
  const str = (k: string) => String(form.get(k) ?? '').slice(0, 200);
  const { clientIp } = context.get(requestInfoContext);
  const r = await makeMonthly(await donationDeps(request), { secret: runtime().secret, token: str('offer'), choice: str('choice'), lang, clientIp });
  if (r.ok) return redirect(r.url, 303);
  return formError<{ error: MessageKey }>({ error: r.error }, r.status, r.retryAfter ? { ...NO_STORE, 'Retry-After': String(r.retryAfter) } : NO_STORE);
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('payment.successTitle'), description: i18n.t('payment.successTextNoEmail') })),
  { name: 'robots', content: 'noindex' },
];

function MakeMonthly({ offer, error }: { offer: NonNullable<Route.ComponentProps['loaderData']['monthly']>; error: MessageKey | undefined }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="make-monthly" className="mt-12 rounded-lg border-2 border-brand-700 p-6 text-left">
      <h2 id="make-monthly" className="text-2xl font-bold">
        {t('payment.monthlyTitle')}
      </h2>
      <p className="mt-2 text-gray-700">{t('payment.monthlyText')}</p>
      {error && (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 font-semibold text-red-800">
          {t(error)}
        </p>
      )}
      <form method="post" className="mt-4">
        <input type="hidden" name="offer" value={offer.token} />
        <fieldset>
          <legend className="font-semibold">{t('payment.monthlyLegend')}</legend>
          <label className="mt-2 flex min-h-11 items-center gap-3">
            <input type="radio" name="choice" value="same" defaultChecked className="h-4 w-4" /> {t('payment.monthlySame', { amount: offer.same })}
          </label>
          {offer.share && (
            <label className="flex min-h-11 items-center gap-3">
              <input type="radio" name="choice" value="share" className="h-4 w-4" /> {t('payment.monthlyShare', { amount: offer.share })}
            </label>
          )}
        </fieldset>
        <button type="submit" className={buttonClass('primary', 'mt-4')}>
          {t('payment.monthlySubmit')}
        </button>
      </form>
    </section>
  );
}

export default function PaymentSuccess({ loaderData, actionData }: Route.ComponentProps) {
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
      {loaderData.monthly && <MakeMonthly offer={loaderData.monthly} error={actionData?.error} />}
      {!loaderData.monthly && actionData?.error && (
        <p role="alert" className="mt-6 rounded-md bg-red-50 p-3 font-semibold text-red-800">
          {t(actionData.error)}
        </p>
      )}
      <ButtonLink to="/" variant={loaderData.monthly ? 'secondary' : 'primary'} className="mt-8">
        {t('payment.backHome')}
      </ButtonLink>
    </div>
  );
}
