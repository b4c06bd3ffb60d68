import { data } from 'react-router';
import type { Route } from './+types/about';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { CheckList } from '~/ui/site/CheckList';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { managedPage } from './preview.server';
import { publishedImage } from './published.server';

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, preview, headers } = await managedPage(request, context, 'about');
  return data({ preview, title: page.fields.title, content: page.fields.content, founder: await publishedImage(page.images.founderImage) }, { headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({
    title: args.loaderData?.title || i18n.t('nav.about'),
    description: i18n.t('about.metaDescription'),
    image: args.loaderData?.founder?.src,
    preview: args.loaderData?.preview,
  }));

const OBJECTIVES: MessageKey[] = ['about.objective1', 'about.objective2', 'about.objective3', 'about.objective4'];

export default function About({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{loaderData.title || t('nav.about')}</h1>
      <div className="mt-10 grid items-start gap-10 lg:grid-cols-[2fr_1fr]">
        <RichText html={loaderData.content} className="text-lg text-gray-800" />
        <Img image={loaderData.founder} alt={t('about.founderAlt')} sizes="(min-width: 1024px) 33vw, 100vw" className="w-full rounded-xl object-cover shadow-md" />
      </div>
      <section aria-labelledby="objectives" className="mt-16">
        <h2 id="objectives" className="text-3xl font-bold">{t('about.objectivesTitle')}</h2>
        <CheckList items={OBJECTIVES.map((k) => t(k))} />
      </section>
    </div>
  );
}
