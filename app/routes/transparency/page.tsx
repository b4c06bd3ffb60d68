import { data } from 'react-router';
import type { Route } from './+types/page';
import { commentIn } from '~/domain/transparency/figures';
import { yearSummary, type SummaryRow } from '~/domain/transparency/summary';
import { currentYear, liveTotals, publicYear, publishedYears } from '~/domain/transparency/years.server';
import { formatMoney } from '~/lib/currency';
import { useI18n } from '~/lib/i18n';
import { detectLang, messagesFor } from '~/lib/i18n.server';
import { formatDay } from '~/lib/intl';
import { pageHeaders, pageMeta } from '~/lib/page-meta';
import { parisDay } from '~/lib/paris';
import { db } from '~/lib/runtime.server';
import { SiteLink } from '~/ui/primitives/links';
import { MoneyBars } from '~/ui/site/MoneyBars';

export const headers = pageHeaders;

/**
 * /ou-va-votre-argent (ADR 032): the latest published year's resources and uses, or the published
 * year its address names (/ou-va-votre-argent/2025; any other year answers 404), and the current
 * year's live totals from the ledger. With no year published the page still answers, with the live
 * totals and a sentence that says so.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { lang } = detectLang(request);
  const years = await publishedYears(db());
  const asked = params.year === undefined ? undefined : /^\d{4}$/.test(params.year) ? Number(params.year) : NaN;
  const year = asked ?? years[0];
  const figures = year === undefined || Number.isNaN(year) ? undefined : await publicYear(db(), year, lang);
  const now = new Date();
  const thisYear = currentYear(now);
  const live = await liveTotals(db(), thisYear, now);
  const shown = figures && year !== undefined ? { year, summary: yearSummary(figures, lang, messagesFor(lang)), comment: commentIn(figures, lang) } : null;
  const body = {
    shown,
    years,
    live: { year: thisYear, day: formatDay(parisDay(now), lang), gifts: formatMoney(live.giftsCents, 'EUR', lang), dues: formatMoney(live.duesCents, 'EUR', lang), total: formatMoney(live.giftsCents + live.duesCents, 'EUR', lang) },
  };
  return asked !== undefined && !shown ? data({ ...body, notFound: true }, { status: 404 }) : { ...body, notFound: false };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, (i18n) => ({ title: args.loaderData?.notFound ? i18n.t('notFound.title') : i18n.t('money.title'), description: i18n.t('money.metaDescription') }));

/** Resources, uses or missions by project: the chart, then its table (line, amount, share) and the total. */
function MoneyBlock({ id, title, sentence, rows, total }: { id: string; title: string; sentence: string; rows: SummaryRow[]; total: SummaryRow }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-4" data-testid={id}>
      <h3 id={id} className="text-2xl font-bold [overflow-wrap:anywhere]">
        {title}
      </h3>
      <MoneyBars title={title} summary={sentence} bars={rows.map((r) => ({ label: r.label, share: r.share, percent: r.percent }))} />
      <p className="text-gray-700 [overflow-wrap:anywhere]">{sentence}</p>
      {/* A wide table scrolls in its own region, never the page (WCAG 1.4.10). */}
      <div role="region" aria-labelledby={id} tabIndex={0} className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="border-b border-gray-300">
            <tr>
              <th scope="col" className="py-2 pr-2 font-semibold">{t('money.line')}</th>
              <th scope="col" className="py-2 pr-2 text-right font-semibold">{t('money.amount')}</th>
              <th scope="col" className="py-2 text-right font-semibold">{t('money.share')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200">
            {rows.map((r, i) => (
              <tr key={`${i}-${r.label}`}>
                <th scope="row" className="py-2 pr-2 font-normal [overflow-wrap:anywhere]">{r.label}</th>
                <td className="py-2 pr-2 text-right whitespace-nowrap">{r.amount}</td>
                <td className="py-2 text-right whitespace-nowrap">{r.percent}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-gray-300 font-semibold">
            <tr>
              <th scope="row" className="py-2 pr-2">{total.label}</th>
              <td className="py-2 pr-2 text-right whitespace-nowrap">{total.amount}</td>
              <td className="py-2 text-right whitespace-nowrap">{total.percent}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

export default function WhereTheMoneyGoes({ loaderData }: Route.ComponentProps) {
  const { t, lang } = useI18n();
  const { shown, years, live, notFound } = loaderData;
  if (notFound) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <h1 className="text-3xl font-bold">{t('notFound.title')}</h1>
        <p className="mt-4 text-gray-700">{t('notFound.text')}</p>
        <p className="mt-6">
          <SiteLink to="/ou-va-votre-argent" className="font-semibold text-brand-700 underline">{t('money.title')}</SiteLink>
        </p>
      </div>
    );
  }
  const pdf = shown ? `/ou-va-votre-argent/${shown.year}/essentiel.pdf${lang === 'fr' ? '' : `?lng=${lang}`}` : '';
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold [overflow-wrap:anywhere]">{t('money.title')}</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-700">{t('money.intro')}</p>
      {shown ? (
        <section aria-labelledby="money-year" className="mt-10 space-y-8">
          <div className="space-y-3">
            <h2 id="money-year" className="text-3xl font-bold">{t('money.yearTitle', { year: shown.year })}</h2>
            <p className="text-2xl font-bold text-brand-800" data-testid="money-headline">{shown.summary.headline}</p>
            {shown.comment && <p className="max-w-2xl text-gray-800 [overflow-wrap:anywhere]">{shown.comment}</p>}
            <p>
              <a href={pdf} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline" data-testid="money-pdf">
                {t('money.pdf', { year: shown.year })}
              </a>
            </p>
          </div>
          <div className="grid gap-12 md:grid-cols-2">
            <MoneyBlock id="money-resources" title={t('money.resources')} sentence={shown.summary.resourcesSentence} rows={shown.summary.resources} total={shown.summary.resourcesTotal} />
            <MoneyBlock id="money-uses" title={t('money.uses')} sentence={shown.summary.usesSentence} rows={shown.summary.uses} total={shown.summary.usesTotal} />
          </div>
          {shown.summary.missions.length > 0 && (
            <MoneyBlock id="money-missions" title={t('money.byProject')} sentence={shown.summary.missionsSentence} rows={shown.summary.missions} total={shown.summary.missionsTotal} />
          )}
        </section>
      ) : (
        <p className="mt-10 max-w-2xl text-gray-800" data-testid="money-none">{t('money.nothingPublished')}</p>
      )}
      <section aria-labelledby="money-live" className="mt-12 max-w-2xl rounded-xl bg-gray-50 p-6" data-testid="money-live">
        <h2 id="money-live" className="text-2xl font-bold">{t('money.liveTitle', { year: live.year })}</h2>
        <p className="mt-2 text-gray-700">{t('money.liveText', { date: live.day })}</p>
        <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-2">
          <dt>{t('money.gifts')}</dt>
          <dd className="text-right whitespace-nowrap">{live.gifts}</dd>
          <dt>{t('money.dues')}</dt>
          <dd className="text-right whitespace-nowrap">{live.dues}</dd>
          <dt className="font-semibold">{t('money.liveTotal')}</dt>
          <dd className="text-right font-semibold whitespace-nowrap">{live.total}</dd>
        </dl>
      </section>
      {years.length > 1 && (
        <nav aria-labelledby="money-years" className="mt-12">
          <h2 id="money-years" className="text-xl font-bold">{t('money.otherYears')}</h2>
          <ul className="mt-3 flex flex-wrap gap-3">
            {years.map((y) => (
              <li key={y}>
                <SiteLink to={`/ou-va-votre-argent/${y}`} aria-current={shown?.year === y ? 'page' : undefined} className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-gray-300 px-3 font-semibold text-brand-700 underline aria-[current=page]:bg-brand-700 aria-[current=page]:text-white">
                  {y}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
