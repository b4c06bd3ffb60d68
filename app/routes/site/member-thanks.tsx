import { redirect } from 'react-router';
import type { Route } from './+types/member-thanks';
import { donationDeps } from '~/domain/donations/deps.server';
import { duesReturn, type ReturnView } from '~/domain/membership/join.server';
import { useI18n } from '~/lib/i18n';
import { inRequestLang } from '~/lib/i18n.server';
import { formatDay } from '~/lib/intl';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';

/**
 * /devenir-membre/merci: what happened to the membership. After an online payment the provider is
 * asked (never the query string; PayPal's approved order is captured there) and the membership
 * read; "je paie autrement" (?attente=1) says it waits for an Admin to record the payment. A payer
 * who closed a hosted checkout (which comes back here whatever happened) sees the cancel page.
 */
export async function loader({ request }: Route.LoaderArgs): Promise<ReturnView | { state: 'other' }> {
  const url = new URL(request.url);
  if (url.searchParams.get('attente') === '1') return { state: 'other' };
  const view = await duesReturn(await donationDeps(request), url.searchParams);
  if (view.state === 'cancelled') throw redirect(inRequestLang(request, `/devenir-membre/annule?d=${view.paymentId}`), 303);
  return view;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('join.thanksTitle'), description: i18n.t('join.pendingText') })),
  { name: 'robots', content: 'noindex' },
];

export default function MemberThanks({ loaderData: d }: Route.ComponentProps) {
  const { t, lang } = useI18n();
  const date = d.state === 'active' && d.endsOn ? formatDay(d.endsOn, lang) : '';
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-4xl font-extrabold">{t(d.state === 'other' ? 'join.otherTitle' : 'join.thanksTitle')}</h1>
      <p className="mt-4 text-lg text-gray-700" data-testid="membership-outcome">
        {d.state === 'active' && t('join.activeText', { number: String(d.number), date })}
        {d.state === 'pending' && t('join.pendingText')}
        {d.state === 'other' && t('join.otherText')}
        {d.state === 'unknown' && t('join.unknownText')}
      </p>
      {d.state === 'active' && d.emailed && <p className="mt-2 text-gray-700">{t('join.activeEmailed')}</p>}
      <ButtonLink to="/" className="mt-8">
        {t('join.backHome')}
      </ButtonLink>
    </div>
  );
}
