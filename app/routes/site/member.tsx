import { data, redirect } from 'react-router';
import type { Route } from './+types/member';
import { donationDeps } from '~/domain/donations/deps.server';
import { formatMoney } from '~/lib/currency';
import { ProviderError } from '~/domain/donations/providers/types';
import { readJoinForm, type JoinErrors, type JoinMethod } from '~/domain/membership/join-form';
import { join, joinLimit, joinMethods, offeredTypes, renew, renewalOf, statutesUrl } from '~/domain/membership/join.server';
import { sitePath, translate, useI18n, type MessageKey } from '~/lib/i18n';
import { detectLang, messagesFor } from '~/lib/i18n.server';
import { NO_STORE } from '~/lib/cache-headers';
import { formatDay } from '~/lib/intl';
import { log } from '~/lib/log.server';
import { pageMeta } from '~/lib/page-meta';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { CheckList } from '~/ui/site/CheckList';
import { JoinForm, METHOD_LABEL, MethodChoice } from '~/ui/site/JoinForm';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { hostedCheckoutCsp } from './donate.server';
import { publishedSettings } from './published.server';
import { formPageHeaders } from '~/lib/action-headers';

/**
 * /devenir-membre (ADR 021): joining online (the dues paid through the payment pipeline, or
 * "je paie autrement" for a pending membership), the renewal link's form (?renouveler=…), and the
 * printed form's PDF. The rules are the membership area's (join.server.ts); this route reads the
 * form, limits the rate and redirects.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const settings = await publishedSettings();
  const { lang } = detectLang(request);
  const deps = await donationDeps(request);
  const token = new URL(request.url).searchParams.get('renouveler');
  const renewal = token ? ((await renewalOf(deps, runtime().secret, token.slice(0, 200), lang)) ?? ('invalid' as const)) : null;
  const methods = joinMethods(deps);
  // The forms may lead to the hosted checkouts of the methods on offer, and nowhere else.
  const csp = hostedCheckoutCsp(deps, { card: methods.includes('card'), crypto: methods.includes('crypto'), paypal: methods.includes('paypal'), mobileMoney: methods.includes('mobileMoney') });
  return data(
    { membershipFormUrl: settings.membershipFormUrl, types: await offeredTypes(deps, lang), methods, statutesUrl: await statutesUrl(deps), renewal },
    // A renewal link names one member: that page is theirs alone. The joining form is everyone's.
    { headers: { 'Content-Security-Policy': csp, ...(token ? NO_STORE : {}) } },
  );
}

/** A form's answer (what was typed, its errors) is the visitor's own: never stored. */
export const headers = (args: Route.HeadersArgs) => formPageHeaders(args);

type ActionData = { intent: 'join' | 'renew'; errors: JoinErrors; values: Record<string, string>; formError: MessageKey | null };


export async function action({ request, context }: Route.ActionArgs) {
  const { lang } = detectLang(request);
  const form = await request.formData();
  const get = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v : '';
  };
  const intent = get('intent') === 'renew' ? 'renew' : 'join';
  const fail = (status: number, d: Partial<ActionData>) => data<ActionData>({ intent, errors: {}, values: {}, formError: null, ...d }, { status });
  const deps = await donationDeps(request);
  const { clientIp } = context.get(requestInfoContext);
  const limit = await joinLimit(deps.db, clientIp);
  if (!limit.allowed) return data<ActionData>({ intent, errors: {}, values: {}, formError: 'join.tooMany' }, { status: 429, headers: { 'Retry-After': String(limit.retryAfter) } });
  const m = messagesFor(lang);
  const productName = (type: string) => translate(m, 'join.productName', { type });
  try {
    if (intent === 'renew') {
      const started = await renew(deps, runtime().secret, get('token').slice(0, 200), get('method'), lang, productName);
      if (started && 'refused' in started) return fail(400, { errors: { method: 'join.chooseMethod' } });
      if (!started) return fail(400, { formError: 'join.renewInvalid' });
      return redirect(started.url, 303);
    }
    const read = readJoinForm(get);
    if (!read.ok) return fail(400, { errors: read.errors, values: read.values });
    const outcome = await join(deps, read.input, lang, productName);
    if (outcome.kind === 'refused') return fail(400, { errors: { [outcome.field]: outcome.field === 'type_id' ? 'join.chooseType' : 'join.chooseMethod' }, values: read.values });
    if (outcome.kind === 'pending') return redirect(sitePath(lang, '/devenir-membre/merci?attente=1'), 303);
    return redirect(outcome.url, 303);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('dues payment could not start', { provider: e.provider, error: e.message });
    return fail(502, { formError: 'join.paymentError' });
  }
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('member.title'), description: i18n.t('member.metaDescription') }));

const BENEFITS: MessageKey[] = ['member.benefit1', 'member.benefit2', 'member.benefit3', 'member.benefit4'];

function Renewal({ renewal, methods, back }: { renewal: Exclude<Route.ComponentProps['loaderData']['renewal'], null | 'invalid'>; methods: JoinMethod[]; back: ActionData | null }) {
  const { t, lang } = useI18n();
  const online = methods.filter((x) => x !== 'other');
  const date = renewal.endsOn ? formatDay(renewal.endsOn, lang) : null;
  return (
    <section aria-labelledby="renew-title" className="mt-10 rounded-xl border border-gray-200 p-6 shadow-sm">
      <h2 id="renew-title" className="text-2xl font-bold">{t('join.renewTitle')}</h2>
      {back?.formError && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">
          {t(back.formError)}
        </p>
      )}
      <p className="mt-3 wrap-anywhere" data-testid="renewal-summary">
        {t('join.renewIntro', { name: `${renewal.firstName} ${renewal.lastName}`, number: String(renewal.number), type: renewal.typeName, amount: formatMoney(renewal.duesCents, 'EUR', lang) })}
      </p>
      <p className="mt-2 text-gray-700">{date ? t('join.renewEnds', { date }) : t('join.renewNoEnd')}</p>
      <form method="post" action={sitePath(lang, '/devenir-membre')} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="renew" />
        <input type="hidden" name="token" value={renewal.token} />
        <MethodChoice name="method" methods={online} chosen={online[0] ?? ''} errors={back?.errors ?? {}} labels={METHOD_LABEL} />
        <button type="submit" className={buttonClass('primary')}>
          {t('join.renewSubmit')}
        </button>
      </form>
    </section>
  );
}

export default function Member({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { renewal, types, methods } = loaderData;
  const joinBack = actionData?.intent === 'join' ? actionData : null;
  const renewBack = actionData?.intent === 'renew' ? actionData : null;
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('member.title')}</p>
      <h1 className="mt-2 text-4xl font-extrabold">{t('member.heading')}</h1>
      <p className="mt-3 text-lg text-gray-700">{t('member.intro')}</p>
      {renewal === 'invalid' && (
        <p role="status" className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-950">
          {t('join.renewInvalid')}
        </p>
      )}
      {renewal && renewal !== 'invalid' && <Renewal renewal={renewal} methods={methods} back={renewBack} />}
      <section aria-labelledby="benefits" className="mt-10">
        <h2 id="benefits" className="text-2xl font-bold">{t('member.benefitsTitle')}</h2>
        <CheckList items={BENEFITS.map((k) => t(k))} tone="outlined" />
      </section>
      <section aria-labelledby="join-title" className="mt-10 rounded-xl border border-gray-200 p-6 shadow-sm">
        <h2 id="join-title" className="text-2xl font-bold">{t('join.formTitle')}</h2>
        {types.length ? (
          <>
            <p className="mt-2 text-gray-700">{t('join.formIntro')}</p>
            <JoinForm types={types} methods={methods} statutesUrl={loaderData.statutesUrl} values={joinBack?.values ?? {}} errors={joinBack?.errors ?? {}} formError={joinBack?.formError ?? null} />
          </>
        ) : (
          <p className="mt-2 text-gray-700">{t('join.noTypes')}</p>
        )}
      </section>
      <section aria-labelledby="paper-title" className="mt-10">
        <h2 id="paper-title" className="text-2xl font-bold">{t('join.paperTitle')}</h2>
        <div className="mt-4">
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
      </section>
    </div>
  );
}
