import { data, redirect } from 'react-router';
import type { Route } from './+types/sign-in';
import { useSignInLink } from '~/domain/donors/links.server';
import { assertSameOrigin, isSecure } from '~/lib/origin.server';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { SiteLink } from '~/ui/primitives/links';
import { NO_STORE, donorSessionHeaders } from './session.server';
import { inRequestLang } from '~/lib/i18n.server';

/**
 * /mon-espace/connexion?t=…: the mailed link. Opening it only shows a button; the link is used
 * by the POST, so a mail scanner that fetches links cannot spend it.
 */
export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('t') ?? '';
  return data({ token: token.slice(0, 100) }, { headers: NO_STORE });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const form = await request.formData();
  const token = String(form.get('token') ?? '');
  const opened = await useSignInLink(db(), token);
  if (!opened) return data({ invalid: true }, { status: 400, headers: NO_STORE });
  const maxAge = (opened.expiresAt.getTime() - Date.now()) / 1000;
  throw redirect(inRequestLang(request, '/mon-espace'), { headers: donorSessionHeaders(opened.token, maxAge, isSecure(request)) });
}

export function headers() {
  return NO_STORE;
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('donorSpace.confirmTitle'), description: i18n.t('donorSpace.metaDescription') })),
  { name: 'robots', content: 'noindex' },
];

export default function DonorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold">{t('donorSpace.confirmTitle')}</h1>
      {actionData?.invalid || !loaderData.token ? (
        <>
          <p role="alert" className="mt-6 rounded-md border border-red-200 bg-red-50 p-3 font-medium text-red-900">{t('donorSpace.linkInvalid')}</p>
          <SiteLink to="/mon-espace" className={buttonClass('secondary', 'mt-6')}>{t('donorSpace.newLink')}</SiteLink>
        </>
      ) : (
        <form method="post" className="mt-6 space-y-5">
          <p className="text-lg text-gray-700">{t('donorSpace.confirmText')}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <button type="submit" className={buttonClass('primary')}>{t('donorSpace.confirmButton')}</button>
        </form>
      )}
    </div>
  );
}
