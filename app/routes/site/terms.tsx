import type { Route } from './+types/terms';
import { getLocalizedPage } from '~/domain/content/pages.server';
import { useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { LegalPage } from '~/ui/site/LegalPage';

export async function loader({ request }: Route.LoaderArgs) {
  const page = await getLocalizedPage(db(), 'terms', detectLang(request).lang);
  return { title: page.fields.title, content: page.fields.content };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('footer.terms'), description: i18n.t('legal.termsMeta') }));

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <LegalPage title={loaderData.title || t('footer.terms')} content={loaderData.content} />;
}
