import { data } from 'react-router';
import type { Route } from './+types/terms';
import { useI18n } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { LegalPage } from '~/ui/site/LegalPage';
import { managedPage } from './preview.server';

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, preview, headers } = await managedPage(request, context, 'terms');
  return data({ preview, title: page.fields.title, content: page.fields.content }, { headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('footer.terms'), description: i18n.t('legal.termsMeta'), preview: args.loaderData?.preview }));

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return <LegalPage title={loaderData.title || t('footer.terms')} content={loaderData.content} preview={loaderData.preview} />;
}
