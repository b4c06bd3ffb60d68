import { data } from 'react-router';
import type { Route } from './+types/partners';
import { PARTNER_TYPE, listPartners } from '~/domain/partners/partners.server';
import { useI18n } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { Img } from '~/ui/primitives/Img';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { previewFor } from './preview.server';
import { publishedImages, publishedPartners } from './published.server';

export const headers = pageHeaders;

/** `?partenaire=<id>&apercu=…`: "Aperçu" of that partner's draft, in its place in the list (ADR 015). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('partenaire') ?? '';
  const allowed = await previewFor(request, context, { type: PARTNER_TYPE, id }, 'partners');
  const preview = allowed.preview && id !== '';
  const partners = preview ? await listPartners(db(), { preview: id }) : await publishedPartners();
  const logos = await publishedImages(partners.map((p) => p.logoUrl));
  return data({ preview, partners: partners.map((p) => ({ ...p, logo: logos.get(p.logoUrl) })) }, { headers: allowed.headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('partners.title'), description: i18n.t('partners.metaDescription'), preview: args.loaderData?.preview }));

export default function Partners({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{t('partners.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('partners.intro')}</p>
      {loaderData.partners.length === 0 ? (
        <p className="mt-10 text-gray-700">{t('partners.empty')}</p>
      ) : (
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.partners.map((p) => (
            <li key={p.id}>
              <a
                href={p.website}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t('partners.visit', { name: p.name })}
                className="flex h-full flex-col items-center gap-4 rounded-xl border border-gray-200 p-6 text-center shadow-sm transition-shadow hover:shadow-md"
              >
                <Img image={p.logo} alt="" sizes="200px" className="h-24 w-auto object-contain" />
                <span className="text-lg font-semibold">{p.name}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
