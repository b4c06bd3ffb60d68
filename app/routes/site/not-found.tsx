import { data } from 'react-router';
import type { Route } from './+types/not-found';
import { useI18n } from '~/lib/i18n';
import { pageMeta } from '~/lib/page-meta';
import { ButtonLink } from '~/ui/primitives/ButtonLink';

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, (i18n) => ({ title: i18n.t('notFound.title'), description: i18n.t('notFound.text') })),
  { name: 'robots', content: 'noindex' },
];

export default function NotFound() {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center sm:px-6">
      <p className="text-6xl font-extrabold text-brand-700">404</p>
      <h1 className="mt-4 text-3xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-4 text-gray-700">{t('notFound.text')}</p>
      <ButtonLink to="/" className="mt-8">
        {t('notFound.home')}
      </ButtonLink>
    </div>
  );
}
