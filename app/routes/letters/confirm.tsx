import { data } from 'react-router';
import type { Route } from './+types/confirm';
import { confirmSignup } from '~/domain/subscribers/subscribers.server';
import { useI18n } from '~/lib/i18n';
import { assertSameOrigin } from '~/lib/origin.server';
import { pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { NO_STORE } from '~/lib/cache-headers';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { SiteLink } from '~/ui/primitives/links';

/**
 * /lettre/confirmer/:token, the opt-in mail's link. Opening it only shows a button: the POST
 * confirms, so a mail scanner that follows links never subscribes anyone.
 */
export function loader() {
  return data({}, { headers: NO_STORE });
}

export async function action({ request, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const result = await confirmSignup(db(), params.token);
  return data({ result: result.kind }, { status: result.kind === 'confirmed' ? 200 : 400, headers: NO_STORE });
}

export function headers() {
  return NO_STORE;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('newsletter.confirmTitle'), description: i18n.t('newsletter.intro') })),
  { name: 'robots', content: 'noindex' },
];

export default function ConfirmSignup({ actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  const result = actionData?.result;
  return (
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      {result === 'confirmed' ? (
        <>
          <h1 className="text-4xl font-extrabold">{t('newsletter.confirmedTitle')}</h1>
          <p role="status" className="mt-6 text-lg text-gray-700" data-testid="signup-confirmed">{t('newsletter.confirmedText')}</p>
        </>
      ) : result ? (
        <>
          <h1 className="text-4xl font-extrabold">{t(result === 'expired' ? 'newsletter.expiredTitle' : 'newsletter.invalidTitle')}</h1>
          <p role="alert" className="mt-6 text-lg text-gray-700">{t(result === 'expired' ? 'newsletter.expiredText' : 'newsletter.invalidText')}</p>
          <SiteLink to="/lettre/inscription" className={buttonClass('secondary', 'mt-6')}>{t('newsletter.title')}</SiteLink>
        </>
      ) : (
        <>
          <h1 className="text-4xl font-extrabold">{t('newsletter.confirmTitle')}</h1>
          <form method="post" className="mt-6 space-y-5">
            <p className="text-lg text-gray-700">{t('newsletter.confirmText')}</p>
            <button type="submit" className={buttonClass('primary')}>{t('newsletter.confirmButton')}</button>
          </form>
        </>
      )}
    </div>
  );
}
