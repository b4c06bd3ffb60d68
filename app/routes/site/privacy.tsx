import type { Route } from './+types/privacy';
import { getLocalizedPage } from '~/domain/content/pages.server';
import { useI18n } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { LegalPage } from '~/ui/site/LegalPage';

export async function loader({ request }: Route.LoaderArgs) {
  const page = await getLocalizedPage(db(), 'privacy', detectLang(request).lang);
  return { title: page.fields.title, content: page.fields.content };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('footer.privacy'), description: i18n.t('legal.privacyMeta') }));

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <LegalPage title={loaderData.title || t('footer.privacy')} content={loaderData.content} />;
}
