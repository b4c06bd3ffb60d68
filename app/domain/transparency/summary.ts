/**
 * A year's figures written out in one language (ADR 032): the rows of the resources, the uses and
 * the missions by project, each with its amount and share, and the sentences that sum them up. The
 * public page's charts and tables and the one-page PDF show the same words. Shared with the
 * browser: no server imports.
 */
import { formatMoney } from '~/lib/currency';
import { translate, type Lang, type MessageKey, type Vars } from '~/lib/i18n';
import { numberFormat } from '~/lib/intl';
import type { Messages } from '~/locales/fr';
import { yearTotals, type YearFigures } from './figures';

export interface SummaryRow {
  label: string;
  cents: number;
  /** 0 to 1 of its side. */
  share: number;
  amount: string;
  percent: string;
}

export interface YearSummary {
  resources: SummaryRow[];
  resourcesTotal: SummaryRow;
  uses: SummaryRow[];
  usesTotal: SummaryRow;
  missions: SummaryRow[];
  missionsTotal: SummaryRow;
  headline: string;
  resourcesSentence: string;
  usesSentence: string;
  missionsSentence: string;
}

export const percentIn = (lang: Lang, share: number): string => numberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);

export function yearSummary(f: YearFigures, lang: Lang, messages: Messages): YearSummary {
  const t = (key: MessageKey, vars?: Vars) => translate(messages, key, vars);
  const s = yearTotals(f);
  const row = (label: string, cents: number, whole: number): SummaryRow => {
    const share = s.share(cents, whole);
    return { label, cents, share, amount: formatMoney(cents, 'EUR', lang), percent: percentIn(lang, share) };
  };
  const resources = [row(t('money.gifts'), f.giftsCents, s.resourcesCents), row(t('money.dues'), f.duesCents, s.resourcesCents), ...f.otherResources.map((r) => row(r.label, r.cents, s.resourcesCents))];
  const uses = [row(t('money.missions'), s.missionsCents, s.usesCents), row(t('money.fundraising'), f.fundraisingCents, s.usesCents), row(t('money.running'), f.runningCents, s.usesCents)];
  const missions = f.missions.map((m) => row(m.label, m.cents, s.missionsCents));
  const money = (cents: number) => formatMoney(cents, 'EUR', lang);
  return {
    resources,
    resourcesTotal: row(t('money.total'), s.resourcesCents, s.resourcesCents),
    uses,
    usesTotal: row(t('money.total'), s.usesCents, s.usesCents),
    missions,
    missionsTotal: row(t('money.total'), s.missionsCents, s.missionsCents),
    headline: t('money.headline', { percent: percentIn(lang, s.missionsShare) }),
    resourcesSentence: t('money.resourcesSummary', { total: money(s.resourcesCents), percent: percentIn(lang, s.publicShare) }),
    usesSentence: t('money.usesSummary', { total: money(s.usesCents), missions: percentIn(lang, s.missionsShare), fundraising: percentIn(lang, s.fundraisingShare), running: percentIn(lang, s.runningShare) }),
    missionsSentence: t('money.byProjectSummary', { total: money(s.missionsCents), count: String(missions.length) }),
  };
}
