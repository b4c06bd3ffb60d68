/**
 * "L'essentiel <year>" (ADR 032): a published year on one A4 page, in the reader's language — the
 * title, the headline share for social missions, the sentences, the resources and uses with their
 * amounts and shares (the missions by project when they fit on the page), the year's comment.
 * Drawn by the shared one-table layout; the same figures give the same bytes.
 */
import type { DB } from '~db/index';
import { translate, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { renderTablePdf } from '~/lib/table-pdf.server';
import { publicYear, getYear } from './years.server';
import { commentIn } from './figures';
import { yearSummary, type SummaryRow } from './summary';

/** Rows the page holds under its heading (A4, 28 points a row). */
const PAGE_ROWS = 16;
/** Helvetica (WinAnsi) has no narrow no-break space: the number formats' one is written as a space. */
const winAnsi = (s: string) => s.replace(/\u202f/g, ' ');

export async function summaryPdf(db: DB, year: number, lang: Lang): Promise<Buffer | undefined> {
  const figures = await publicYear(db, year, lang);
  if (!figures) return undefined;
  const stored = await getYear(db, year);
  const m = messagesFor(lang);
  const t = (key: Parameters<typeof translate>[1], vars?: Record<string, string | number>) => winAnsi(translate(m, key, vars));
  const s = yearSummary(figures, lang, m);
  const line = (r: SummaryRow, indent = '') => [winAnsi(indent + r.label), winAnsi(r.amount), winAnsi(r.percent)];
  const section = (title: string) => [title.toUpperCase(), '', ''];
  const main = [section(t('money.resources')), ...s.resources.map((r) => line(r)), line(s.resourcesTotal), section(t('money.uses')), ...s.uses.map((r) => line(r)), line(s.usesTotal)];
  const detail = s.missions.length > 0 && main.length + s.missions.length + 1 <= PAGE_ROWS ? [section(t('money.byProject')), ...s.missions.map((r) => line(r, '  '))] : [];
  const comment = commentIn(figures, lang);
  return renderTablePdf({
    heading: [t('money.pdfTitle', { year }), t('site.name'), t('money.pdfIntro', { year }), winAnsi(s.headline), winAnsi(s.resourcesSentence), winAnsi(s.usesSentence), ...(comment ? [winAnsi(comment)] : [])],
    columns: [
      { title: t('money.line'), width: 295 },
      { title: t('money.amount'), width: 120, align: 'right' },
      { title: t('money.share'), width: 80, align: 'right' },
    ],
    rows: [...main, ...detail],
    createdAt: new Date(stored.updatedAt ?? `${year}-12-31T12:00:00.000Z`),
  });
}
