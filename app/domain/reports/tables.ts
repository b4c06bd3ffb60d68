import { PROVIDER_LABELS, type ProviderName } from '~/domain/donations/status';
import type { DonationReport } from './reports.server';

/**
 * The reports as tables: the screen shows them beside the charts, and each downloads as CSV, so
 * the numbers of a chart, its table and its file are the same ones. Shared with the browser.
 */

export const REPORT_TABLES = ['mois', 'moyens', 'frequence', 'donateurs', 'indicateurs'] as const;
export type ReportTableId = (typeof REPORT_TABLES)[number];

export interface ReportTable {
  id: ReportTableId;
  title: string;
  columns: string[];
  rows: string[][];
}

/** How a table writes its values: for the screen (French, with units) or for a CSV (plain decimals). */
export interface ReportFormat {
  money(cents: number): string;
  count(n: number): string;
  /** A share (0.183) or a change; null when there is nothing to compare with. */
  percent(ratio: number | null, signed?: boolean): string;
  month(month: string): string;
}

/** The change from `before` to `now` as a ratio (0.18 for +18 %); null when `before` is 0. */
export function change(now: number, before: number): number | null {
  return before === 0 ? null : (now - before) / before;
}

export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

export function reportTables(r: DonationReport, f: ReportFormat): ReportTable[] {
  return [
    {
      id: 'mois',
      title: 'Dons par mois, comparés aux mêmes mois un an plus tôt',
      columns: ['Mois', 'Dons', 'Montant', 'Dons un an plus tôt', 'Montant un an plus tôt', 'Évolution du montant'],
      rows: [
        ...r.months.map((m) => [f.month(m.month), f.count(m.current.gifts), f.money(m.current.cents), f.count(m.previous.gifts), f.money(m.previous.cents), f.percent(change(m.current.cents, m.previous.cents), true)]),
        ['Total', f.count(r.total.gifts), f.money(r.total.cents), f.count(r.previousTotal.gifts), f.money(r.previousTotal.cents), f.percent(change(r.total.cents, r.previousTotal.cents), true)],
      ],
    },
    {
      id: 'moyens',
      title: 'Dons par moyen de paiement',
      columns: ['Moyen', 'Dons', 'Montant', 'Part du montant'],
      rows: r.byMethod.map((m) => [PROVIDER_LABELS[m.provider as ProviderName] ?? m.provider, f.count(m.gifts), f.money(m.cents), f.percent(share(m.cents, r.total.cents))]),
    },
    {
      id: 'frequence',
      title: 'Dons ponctuels et mensuels',
      columns: ['Type', 'Dons', 'Montant', 'Part du montant'],
      rows: [
        ['Ponctuels', f.count(r.byFrequency.once.gifts), f.money(r.byFrequency.once.cents), f.percent(share(r.byFrequency.once.cents, r.total.cents))],
        ['Mensuels', f.count(r.byFrequency.monthly.gifts), f.money(r.byFrequency.monthly.cents), f.percent(share(r.byFrequency.monthly.cents, r.total.cents))],
      ],
    },
    {
      id: 'donateurs',
      title: 'Nouveaux donateurs et donateurs fidèles',
      columns: ['Donateurs', 'Nombre'],
      rows: [
        ['Nouveaux (premier don dans la période)', f.count(r.donors.new)],
        ['Fidèles (déjà donateurs avant la période)', f.count(r.donors.returning)],
        ['Dons sans adresse email', f.count(r.donors.anonymousGifts)],
      ],
    },
    {
      id: 'indicateurs',
      title: 'Indicateurs',
      columns: ['Indicateur', 'Valeur'],
      rows: [
        ['Don moyen', r.averageCents === null ? '—' : f.money(r.averageCents)],
        ['Don médian', r.medianCents === null ? '—' : f.money(r.medianCents)],
        ['Donateurs mensuels actifs', f.count(r.monthly.activeDonors)],
        ['Montant mensuel récurrent', f.money(r.monthly.recurringCents)],
        ['Donateurs des 12 mois précédents', f.count(r.retention.previousDonors)],
        ['… qui ont redonné dans les 12 derniers mois', f.count(r.retention.retained)],
        ['Taux de fidélisation', f.percent(share(r.retention.retained, r.retention.previousDonors))],
      ],
    },
  ];
}
