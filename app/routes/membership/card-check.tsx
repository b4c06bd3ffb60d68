import { data } from 'react-router';
import type { Route } from './+types/card-check';
import { cardCheckLimit, checkMemberCard, type CardCheck } from '~/domain/membership/card-check.server';
import { NO_STORE } from '~/lib/cache-headers';
import { LOCALES, useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { dateTimeFormat } from '~/lib/intl';
import { pageMeta } from '~/lib/page-meta';
import { requestInfoContext } from '~/lib/request-context.server';
import { db, runtime } from '~/lib/runtime.server';

type LoaderData = { check: CardCheck; at: string } | { tooMany: true };

/**
 * /adhesion/verifier/:token, the member card's QR code (ADR 039): whether the card is valid today,
 * with the member's name and type and nothing else. Never cached (private, no-store; a shared
 * cache or the page cache never keeps a name), never indexed, and paced per address like the
 * other public forms.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { clientIp } = context.get(requestInfoContext);
  const limit = await cardCheckLimit(db(), clientIp);
  if (!limit.allowed) return data<LoaderData>({ tooMany: true }, { status: 429, headers: { ...NO_STORE, 'Retry-After': String(limit.retryAfter) } });
  const now = new Date();
  const check = await checkMemberCard(db(), runtime().secret, params.token, detectLang(request).lang, now);
  return data<LoaderData>({ check, at: now.toISOString() }, { status: check.status === 'invalid' ? 404 : 200, headers: { ...NO_STORE, 'X-Robots-Tag': 'noindex' } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const h = new Headers(NO_STORE);
  const retry = loaderHeaders.get('Retry-After');
  if (retry) h.set('Retry-After', retry);
  h.set('X-Robots-Tag', 'noindex');
  return h;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('cardCheck.title'), description: i18n.t('cardCheck.title') })),
  { name: 'robots', content: 'noindex' },
];

export default function CardCheckPage({ loaderData: d }: Route.ComponentProps) {
  const { t, lang } = useI18n();
  const check = 'check' in d ? d.check : null;
  const tone = check?.status === 'valid' ? 'border-green-700 bg-green-50 text-green-900' : 'border-red-700 bg-red-50 text-red-900';
  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-extrabold">{t('cardCheck.title')}</h1>
      {!check ? (
        <p role="alert" className="mt-6 text-lg text-gray-700">{t('cardCheck.tooMany')}</p>
      ) : (
        <div className={`mt-6 rounded-xl border-4 p-6 ${tone}`} data-testid="card-check">
          <p role="status" className="text-3xl font-extrabold">
            <span aria-hidden="true">{check.status === 'valid' ? '✓ ' : '✗ '}</span>
            {t(check.status === 'valid' ? 'cardCheck.valid' : check.status === 'expired' ? 'cardCheck.expired' : 'cardCheck.invalid')}
          </p>
          {check.status === 'invalid' ? (
            <p className="mt-4 text-lg">{t('cardCheck.invalidText')}</p>
          ) : (
            <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-lg">
              <dt>{t('cardCheck.name')}</dt>
              <dd className="font-bold wrap-anywhere">{check.name}</dd>
              <dt>{t('cardCheck.type')}</dt>
              <dd className="font-bold wrap-anywhere">{check.type}</dd>
            </dl>
          )}
          <p className="mt-4 text-sm">{t('cardCheck.checkedAt', { date: dateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date('at' in d ? d.at : 0)) })}</p>
        </div>
      )}
    </div>
  );
}
