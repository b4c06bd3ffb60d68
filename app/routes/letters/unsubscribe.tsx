import { data } from 'react-router';
import type { Route } from './+types/unsubscribe';
import { leaveWithToken, tokenNamesSomeone } from '~/domain/letters/leaving.server';
import { useI18n } from '~/lib/i18n';
import { assertSameOrigin } from '~/lib/origin.server';
import { pageMeta } from '~/lib/page-meta';
import { db, runtime } from '~/lib/runtime.server';
import { NO_STORE } from '~/lib/cache-headers';

/**
 * /lettre/desabonnement/:token, the link at the foot of every letter: a page with one button.
 * Opening it never unsubscribes (mail scanners follow links); the button's POST does, at once.
 * Mail clients' one-click POST (RFC 8058) goes to ./un-clic (one-click.ts).
 */
export function loader({ params }: Route.LoaderArgs) {
  return data({ valid: tokenNamesSomeone(runtime().secret, params.token) }, { status: 200, headers: NO_STORE });
}

export async function action({ request, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const left = await leaveWithToken(db(), runtime().secret, params.token, 'page');
  return data({ left }, { status: left ? 200 : 400, headers: NO_STORE });
}

export function headers() {
  return NO_STORE;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('newsletter.unsubscribeTitle'), description: i18n.t('newsletter.unsubscribeText') })),
  { name: 'robots', content: 'noindex' },
];

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  if (actionData?.left) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
        <h1 className="text-4xl font-extrabold">{t('newsletter.unsubscribedTitle')}</h1>
        <p role="status" className="mt-6 text-lg text-gray-700" data-testid="unsubscribed">{t('newsletter.unsubscribedText')}</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('newsletter.unsubscribeTitle')}</h1>
      {!loaderData.valid || actionData ? (
        <p role="alert" className="mt-6 text-lg text-gray-700">{t('newsletter.invalidTitle')}</p>
      ) : (
        <form method="post" className="mt-6 space-y-5">
          <p className="text-lg text-gray-700">{t('newsletter.unsubscribeText')}</p>
          <button type="submit" className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 py-2.5 font-semibold text-white hover:bg-red-900">
            {t('newsletter.unsubscribeButton')}
          </button>
        </form>
      )}
    </div>
  );
}
