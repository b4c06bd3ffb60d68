import { data } from 'react-router';
import type { Route } from './+types/home';
import { messagesFor } from '~/lib/i18n.server';
import { useI18n, type MessageKey } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { runtime } from '~/lib/runtime.server';
import { plainText } from '~/lib/seo';
import { ButtonLink } from '~/ui/primitives/ButtonLink';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { HeroCarousel } from '~/ui/site/HeroCarousel';
import { JsonLd } from '~/ui/site/JsonLd';
import { CONTACT_FALLBACKS, SOCIAL_NETWORKS, socialUrl } from '~/domain/settings/site-settings';
import { ngoJsonLd } from '~/lib/structured-data';
import { today } from '~/domain/content/forms';
import { CampaignCard } from '~/ui/site/CampaignProgress';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { managedPage } from './preview.server';
import { openCampaigns, publishedImages, publishedSettings } from './published.server';

const HERO_FIELDS = ['heroImage', 'heroImage2', 'heroImage3', 'heroImage4', 'heroImage5'];
const PREVIEW_FIELDS = ['actionsPreviewImage1', 'actionsPreviewImage2', 'actionsPreviewImage3'];

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang, page, preview, headers } = await managedPage(request, context, 'home');
  const urls = [...HERO_FIELDS, ...PREVIEW_FIELDS].map((f) => page.images[f]);
  const images = await publishedImages(urls);
  const settings = await publishedSettings();
  const origin = runtime().publicUrl ?? new URL(request.url).origin;
  const messages = messagesFor(lang);
  // Campaigns (#16): the campaigns open to gifts, with their progress.
  const day = today();
  const campaigns = await openCampaigns(lang, day, 3);
  const campaignImages = await publishedImages(campaigns.map((c) => c.image));
  return data({
    preview,
    day,
    campaigns: campaigns.map((c) => ({ slug: c.slug, title: c.title, summary: c.summary, image: campaignImages.get(c.image), goalCents: c.goalCents, raisedCents: c.raisedCents, donors: c.donors, endsOn: c.endsOn, closed: c.closed })),
    organization: ngoJsonLd({
      origin,
      name: messages.site.name,
      description: messages.home.metaDescription,
      logo: settings.logoUrl || settings.siteLogoUrl,
      email: settings.contactEmail || CONTACT_FALLBACKS.contactEmail,
      phone: settings.phone || CONTACT_FALLBACKS.phone,
      address: settings.address || CONTACT_FALLBACKS.address,
      sameAs: SOCIAL_NETWORKS.map((n) => socialUrl(settings, n.key)).filter(Boolean),
    }),
    heroTitle: page.fields.heroTitle,
    heroSubtitle: page.fields.heroSubtitle,
    hero: HERO_FIELDS.map((f) => page.images[f]).filter(Boolean).map((u) => images.get(u)!),
    previews: PREVIEW_FIELDS.map((f) => (page.images[f] ? images.get(page.images[f]) : undefined)),
  }, { headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({
    title: args.loaderData?.heroTitle ? `${i18n.t('site.name')} – ${args.loaderData.heroTitle}` : i18n.t('site.name'),
    fullTitle: true,
    description: args.loaderData?.heroSubtitle ? plainText(args.loaderData.heroSubtitle) || i18n.t('home.metaDescription') : i18n.t('home.metaDescription'),
    image: args.loaderData?.hero[0]?.src,
    preview: args.loaderData?.preview,
  }));

const MISSIONS: { title: MessageKey; text: MessageKey; icon: string }[] = [
  { title: 'home.mission1Title', text: 'home.mission1Text', icon: 'M12 21s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.5-7 10-7 10z' },
  { title: 'home.mission2Title', text: 'home.mission2Text', icon: 'M3 8l9-4 9 4-9 4-9-4zm4 2v5c0 1.5 2.5 3 5 3s5-1.5 5-3v-5' },
  { title: 'home.mission3Title', text: 'home.mission3Text', icon: 'M12 3v18M7 7c0 3 2 5 5 5s5-2 5-5M5 21h14' },
  { title: 'home.mission4Title', text: 'home.mission4Text', icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 14 0' },
];

const ACTIONS: { title: MessageKey; text: MessageKey }[] = [
  { title: 'home.action1Title', text: 'home.action1Text' },
  { title: 'home.action2Title', text: 'home.action2Text' },
  { title: 'home.action3Title', text: 'home.action3Text' },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  return (
    <>
      <JsonLd data={loaderData.organization} />
      {loaderData.preview && (
        <div className="mx-auto max-w-7xl px-4 pt-6 sm:px-6">
          <PreviewBanner />
        </div>
      )}
      <HeroCarousel images={loaderData.hero}>
        <div className="mx-auto flex min-h-[70vh] max-w-7xl flex-col justify-center px-4 py-24 text-white sm:px-6">
          <h1 className="max-w-3xl text-4xl font-extrabold leading-tight sm:text-5xl">{loaderData.heroTitle || t('home.hero_title')}</h1>
          <RichText html={loaderData.heroSubtitle} className="mt-4 max-w-2xl text-lg text-gray-100 [&_a]:text-white" />
          <div className="mt-8 flex flex-wrap gap-4">
            <ButtonLink to="/faire-un-don">{t('home.donate')}</ButtonLink>
            <ButtonLink to="/devenir-membre" variant="light">
              {t('home.becomeMember')}
            </ButtonLink>
          </div>
        </div>
      </HeroCarousel>

      <section aria-labelledby="missions-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <h2 id="missions-title" className="text-3xl font-bold">{t('home.missionsTitle')}</h2>
        <p className="mt-3 max-w-2xl text-gray-700">{t('home.missionsIntro')}</p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {MISSIONS.map((m) => (
            <li key={m.title} className="rounded-xl border border-gray-200 p-6 shadow-sm">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                  <path d={m.icon} />
                </svg>
              </span>
              <h3 className="mt-4 text-xl font-semibold">{t(m.title)}</h3>
              <p className="mt-2 text-gray-700">{t(m.text)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="actions-title" className="bg-brand-50/60">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="actions-title" className="text-3xl font-bold">{t('home.actionsTitle')}</h2>
          <p className="mt-3 max-w-2xl text-gray-700">{t('home.actionsIntro')}</p>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {ACTIONS.map((a, i) => (
              <li key={a.title} className="overflow-hidden rounded-xl bg-white shadow-sm">
                <Img image={loaderData.previews[i]} alt="" sizes="(min-width: 768px) 33vw, 100vw" className="aspect-[3/2] w-full object-cover" />
                <div className="p-6">
                  <h3 className="text-xl font-semibold">{t(a.title)}</h3>
                  <p className="mt-2 text-gray-700">{t(a.text)}</p>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-10">
            <ButtonLink to="/nos-actions" variant="secondary">
              {t('home.seeAllActions')}
            </ButtonLink>
          </div>
        </div>
      </section>

      {loaderData.campaigns.length > 0 && (
        <section aria-labelledby="campaigns-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="campaigns-title" className="text-3xl font-bold">{t('campaigns.homeTitle')}</h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {loaderData.campaigns.map((c) => (
              <li key={c.slug}>
                <CampaignCard c={c} today={loaderData.day} headingLevel={3} />
              </li>
            ))}
          </ul>
          <div className="mt-10">
            <ButtonLink to="/campagnes" variant="secondary">
              {t('campaigns.all')}
            </ButtonLink>
          </div>
        </section>
      )}
    </>
  );
}
