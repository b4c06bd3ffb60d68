import { data } from 'react-router';
import type { Route } from './+types/privacy';
import { useI18n } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { LegalPage } from '~/ui/site/LegalPage';
import { managedPage } from './preview.server';

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, preview, headers } = await managedPage(request, context, 'privacy');
  return data({ preview, title: page.fields.title, content: page.fields.content }, { headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('footer.privacy'), description: i18n.t('legal.privacyMeta'), preview: args.loaderData?.preview }));

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <LegalPage title={loaderData.title || t('footer.privacy')} content={loaderData.content} preview={loaderData.preview} />;
}
