import { data } from 'react-router';
import type { Route } from './+types/projects';
import { PROJECT_TYPE } from '~/domain/projects/projects.server';
import { previewProjects } from '~/domain/projects/preview.server';
import { projectAnchor, type ProjectStatus } from '~/domain/projects/projects';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { detectLang } from '~/lib/i18n.server';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { db } from '~/lib/runtime.server';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { today } from '~/domain/content/forms';
import { formatMoney } from '~/lib/currency';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { previewFor } from './preview.server';
import { activeProjects, openCampaigns, publishedImages } from './published.server';
import { SiteLink } from '~/ui/primitives/links';

/** /nos-actions: the active projects; `?projet=<id>&apercu=…` previews that project's draft among them (ADR 015). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const id = new URL(request.url).searchParams.get('projet');
  const { preview, headers } = await previewFor(request, context, id === null ? null : { type: PROJECT_TYPE, id }, 'actions');
  const previewed = preview ? await previewProjects(db(), id!, lang) : undefined;
  const projects = previewed ?? (await activeProjects(lang));
  const images = await publishedImages(projects.map((p) => p.image));
  // Campaigns (#16): a project shows the campaign open for it, the newest if several (the open
  // campaigns are remembered with the published content, as on the home page).
  const campaigns = await openCampaigns(lang, today());
  const campaignOf = (id: string) => {
    const c = campaigns.find((x) => x.projectId === id);
    return c ? { slug: c.slug, title: c.title, raisedCents: c.raisedCents } : null;
  };
  return data(
    { projects: projects.map((p) => ({ ...p, image: images.get(p.image), campaign: campaignOf(p.id) })), preview: previewed ? id : null },
    { headers },
  );
}

export const headers = pageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: i18n.t('projects.title'), description: i18n.t('projects.metaDescription'), preview: Boolean(args.loaderData?.preview) }));

const STATUS_LABEL: Record<ProjectStatus, MessageKey> = {
  Planifié: 'projects.statusPlanned',
  'En cours': 'projects.statusOngoing',
  Terminé: 'projects.statusDone',
};

export default function Projects({ loaderData }: Route.ComponentProps) {
  const { t, formatDate, lang } = useI18n();
  const { preview } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      {preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{t('projects.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('projects.intro')}</p>
      {loaderData.projects.length === 0 ? (
        <p className="mt-10 text-gray-700">{t('projects.empty')}</p>
      ) : (
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.projects.map((p) => (
            <li key={p.id} id={p.id === preview ? projectAnchor(p.id) : undefined} data-preview={p.id === preview || undefined} className={p.id === preview ? 'scroll-mt-28 rounded-xl p-2 ring-2 ring-amber-600' : undefined}>
              {p.id === preview && <p className="mb-2 text-sm font-semibold text-amber-900">{t('editorial.previewTitle')}</p>}
              {/* The description shows on hover, on keyboard focus and on tap (tapping focuses). */}
              <article tabIndex={0} aria-labelledby={`project-${p.id}`} className="group relative h-full overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-gray-200 outline-offset-4" data-testid="project-card">
                <Img image={p.image} alt="" sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" className="aspect-[3/2] w-full object-cover" />
                <div className="p-5">
                  <p className="text-sm font-semibold text-brand-700">{t(STATUS_LABEL[p.status] ?? 'projects.statusPlanned')}</p>
                  <h2 id={`project-${p.id}`} className="mt-1 text-xl font-bold">{p.title}</h2>
                  <p className="mt-2 text-sm text-gray-700">
                    <span className="sr-only">{t('projects.location')} : </span>
                    {p.location} · <time dateTime={p.date}>{formatDate(p.date)}</time>
                  </p>
                </div>
                <div data-description className="absolute inset-0 flex items-center bg-gray-900/90 p-6 text-white opacity-0 transition-opacity duration-300 group-hover:opacity-100 group-focus:opacity-100 group-focus-within:opacity-100">
                  <RichText html={p.description} className="[&_a]:text-white" />
                </div>
              </article>
              {p.campaign && (
                <p className="mt-3 text-sm" data-testid="project-campaign">
                  <span className="font-semibold text-gray-900">{t('campaigns.linked')} : </span>
                  <SiteLink to={`/campagnes/${encodeURIComponent(p.campaign.slug)}`} className="font-semibold text-brand-700 underline">
                    {p.campaign.title}
                  </SiteLink>{' '}
                  — {t('campaigns.raised', { amount: formatMoney(p.campaign.raisedCents, 'EUR', lang) })}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
