import { data } from 'react-router';
import type { Route } from './+types/missions';
import { LOCALES, useI18n, type MessageKey } from '~/lib/i18n';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { Img } from '~/ui/primitives/Img';
import { RichText } from '~/ui/primitives/RichText';
import { PreviewBanner } from '~/ui/site/PreviewBanner';
import { managedPage } from './preview.server';
import { numberFormat } from '~/lib/intl';
import { publishedImages } from './published.server';

/** The four pillars, each with its image field and three statistics. */
const PILLARS: { id: string; image: string; title: MessageKey; text: MessageKey; stats: [number, MessageKey][] }[] = [
  { id: 'health', image: 'mission1Image', title: 'missions.health', text: 'missions.healthText', stats: [[12500, 'missions.healthStat1'], [48, 'missions.healthStat2'], [9, 'missions.healthStat3']] },
  { id: 'education', image: 'mission2Image', title: 'missions.education', text: 'missions.educationText', stats: [[3200, 'missions.educationStat1'], [14, 'missions.educationStat2'], [5000, 'missions.educationStat3']] },
  { id: 'food', image: 'mission3Image', title: 'missions.food', text: 'missions.foodText', stats: [[85000, 'missions.foodStat1'], [1200, 'missions.foodStat2'], [22, 'missions.foodStat3']] },
  { id: 'empowerment', image: 'mission4Image', title: 'missions.empowerment', text: 'missions.empowermentText', stats: [[640, 'missions.empowermentStat1'], [75, 'missions.empowermentStat2'], [900, 'missions.empowermentStat3']] },
];

export const headers = pageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, preview, headers } = await managedPage(request, context, 'missions');
  const images = await publishedImages(PILLARS.map((p) => page.images[p.image]));
  return data({
    preview,
    title: page.fields.title,
    introduction: page.fields.introduction,
    images: PILLARS.map((p) => (page.images[p.image] ? images.get(page.images[p.image]) : undefined)),
  }, { headers });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, (i18n) => ({ title: args.loaderData?.title || i18n.t('nav.missions'), description: i18n.t('missions.metaDescription'), preview: args.loaderData?.preview }));

export default function Missions({ loaderData }: Route.ComponentProps) {
  const { t, lang } = useI18n();
  const number = numberFormat(LOCALES[lang]);
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      {loaderData.preview && <PreviewBanner className="mb-6" />}
      <h1 className="text-4xl font-extrabold">{loaderData.title || t('nav.missions')}</h1>
      <RichText html={loaderData.introduction} className="mt-4 max-w-3xl text-lg text-gray-800" />
      <h2 className="sr-only">{t('missions.pillarsTitle')}</h2>
      <div className="mt-12 space-y-16">
        {PILLARS.map((pillar, i) => (
          <section key={pillar.id} aria-labelledby={`pillar-${pillar.id}`} className="grid items-center gap-8 md:grid-cols-2">
            <Img image={loaderData.images[i]} alt="" sizes="(min-width: 768px) 50vw, 100vw" className={`aspect-[3/2] w-full rounded-xl object-cover ${i % 2 ? 'md:order-2' : ''}`} />
            <div>
              <h3 id={`pillar-${pillar.id}`} className="text-3xl font-bold text-brand-800">{t(pillar.title)}</h3>
              <p className="mt-3 text-lg text-gray-800">{t(pillar.text)}</p>
              <dl className="mt-6 grid grid-cols-1 gap-4 min-[26rem]:grid-cols-3">
                {pillar.stats.map(([value, label]) => (
                  <div key={label} className="flex flex-col rounded-lg bg-brand-50 p-4 text-center">
                    <dt className="text-sm text-gray-700">{t(label)}</dt>
                    <dd className="order-first text-2xl font-extrabold text-brand-800">{number.format(value)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
