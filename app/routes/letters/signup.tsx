import { data, redirect } from 'react-router';
import type { Route } from './+types/signup';
import { CONSENT_WORDING_VERSION, signupError, signupSchema } from '~/domain/subscribers/consent';
import { sendOptInMail } from '~/domain/subscribers/mails.server';
import { requestSignup } from '~/domain/subscribers/subscribers.server';
import { withActionHeaders } from '~/lib/action-headers';
import { sitePath, useI18n, type MessageKey } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { assertSameOrigin, trustedOrigin } from '~/lib/origin.server';
import { pageMeta } from '~/lib/page-meta';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { db, runtime } from '~/lib/runtime.server';
import { SignupForm } from '~/ui/site/SignupForm';
import { NO_STORE } from '~/lib/cache-headers';

/**
 * /lettre/inscription: where the footer's and the blog's sign-up forms post (ADR 022). Without
 * JavaScript the visitor lands here: "check your inbox", or the form again with what went wrong.
 */
export function loader({ request }: Route.LoaderArgs) {
  return data({ sent: new URL(request.url).searchParams.get('sent') === '1' }, { headers: NO_STORE });
}

const SIGNUP_WINDOW_MS = 10 * 60 * 1000;

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await request.formData();
  const email = String(form.get('email') ?? '');
  const { clientIp } = context.get(requestInfoContext);
  // The same allowance as the contact form, counted apart.
  const limit = await hitRateLimit(db(), `newsletter:${clientIp}`, runtime().env.CONTACT_RATE_LIMIT, SIGNUP_WINDOW_MS);
  if (!limit.allowed) return data({ email, error: 'rateLimited' as const }, { status: 429, headers: { 'Retry-After': String(limit.retryAfter), ...NO_STORE } });
  const parsed = signupSchema.safeParse({ email, lang: form.get('lang') ?? detectLang(request).lang, from: String(form.get('from') ?? '/') });
  if (!parsed.success) return data({ email, error: signupError(parsed.error) }, { status: 400, headers: NO_STORE });
  const { lang } = parsed.data;
  const result = await requestSignup(db(), { email: parsed.data.email, language: lang, from: parsed.data.from, wordingVersion: CONSENT_WORDING_VERSION });
  if (result.kind === 'ask') await sendOptInMail({ db: db(), env: runtime().env, publicUrl: trustedOrigin(request) }, result.subscriber.email, lang, result.token);
  // The same answer whether or not the address was already on the list.
  throw redirect(sitePath(lang, '/lettre/inscription?sent=1'), { status: 303, headers: NO_STORE });
}

export const headers = (args: { actionHeaders: Headers; parentHeaders: Headers }) => {
  const h = withActionHeaders(args);
  h.set('Cache-Control', NO_STORE['Cache-Control']);
  return h;
};

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('newsletter.title'), description: i18n.t('newsletter.intro') })),
  { name: 'robots', content: 'noindex' },
];

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('newsletter.title')}</h1>
      {loaderData.sent && !actionData ? (
        <div role="status" className="mt-6 rounded-md bg-green-50 p-4 text-green-900" data-testid="signup-sent">
          <p className="font-semibold">{t('newsletter.sentTitle')}</p>
          <p>{t('newsletter.sentText')}</p>
        </div>
      ) : (
        <>
          <p className="mt-3 text-lg text-gray-700">{t('newsletter.intro')}</p>
          {actionData?.error && (
            <div role="alert" className="mt-6 rounded-md bg-red-50 p-4 text-red-900" data-testid="signup-error">
              <p className="font-semibold">{t('newsletter.errorTitle')}</p>
            </div>
          )}
          <SignupForm id="signup-page" from="/lettre/inscription" email={actionData?.email} error={actionData?.error ? t(`newsletter.${actionData.error}` as MessageKey) : undefined} />
        </>
      )}
    </div>
  );
}
