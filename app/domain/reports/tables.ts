import { staffMeansLabel } from '~/domain/means/means';
import type { MembershipReport } from '~/domain/membership/report.server';
import type { DonationReport } from './reports.server';

/**
 * The reports as tables: the screen shows them beside the charts, and each downloads as CSV, so
 * the numbers of a chart, its table and its file are the same ones. Shared with the browser.
 */

export const REPORT_TABLES = ['mois', 'moyens', 'frequence', 'donateurs', 'indicateurs', 'adhesions', 'cotisations'] as const;
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

/** A count and an amount per month beside the same month a year earlier, then the total: the gifts' and the dues' first table. */
function comparisonRows(months: { month: string; now: [number, number]; before: [number, number] }[], total: { now: [number, number]; before: [number, number] }, f: ReportFormat): string[][] {
  const row = (label: string, now: [number, number], before: [number, number]) => [label, f.count(now[0]), f.money(now[1]), f.count(before[0]), f.money(before[1]), f.percent(change(now[1], before[1]), true)];
  return [...months.map((m) => row(f.month(m.month), m.now, m.before)), row('Total', total.now, total.before)];
}

/** The membership tables (ADR 021): members per month, and the dues collected beside a year earlier. */
export function membershipTables(m: MembershipReport, f: ReportFormat): ReportTable[] {
  return [
    {
      id: 'adhesions',
      title: 'Membres par mois : à jour, nouveaux, renouvelés, expirés',
      columns: ['Mois', 'Membres à jour en fin de mois', 'Nouveaux', 'Renouvellements', 'Adhésions expirées'],
      rows: [
        ...m.months.map((x) => [f.month(x.month), f.count(x.active), f.count(x.new), f.count(x.renewed), f.count(x.lapsed)]),
        ['Total', f.count(m.activeAtEnd), f.count(m.totals.new), f.count(m.totals.renewed), f.count(m.totals.lapsed)],
      ],
    },
    {
      id: 'cotisations',
      title: 'Cotisations encaissées par mois, comparées aux mêmes mois un an plus tôt',
      columns: ['Mois', 'Cotisations', 'Montant', 'Cotisations un an plus tôt', 'Montant un an plus tôt', 'Évolution du montant'],
      rows: comparisonRows(
        m.months.map((x) => ({ month: x.month, now: [x.dues.dues, x.dues.cents], before: [x.previousDues.dues, x.previousDues.cents] })),
        { now: [m.totals.dues.dues, m.totals.dues.cents], before: [m.totals.previousDues.dues, m.totals.previousDues.cents] },
        f,
      ),
    },
  ];
}

export function reportTables(r: DonationReport, f: ReportFormat, members?: MembershipReport): ReportTable[] {
  return [
    {
      id: 'mois',
      title: 'Dons par mois, comparés aux mêmes mois un an plus tôt',
      columns: ['Mois', 'Dons', 'Montant', 'Dons un an plus tôt', 'Montant un an plus tôt', 'Évolution du montant'],
      rows: comparisonRows(
        r.months.map((m) => ({ month: m.month, now: [m.current.gifts, m.current.cents], before: [m.previous.gifts, m.previous.cents] })),
        { now: [r.total.gifts, r.total.cents], before: [r.previousTotal.gifts, r.previousTotal.cents] },
        f,
      ),
    },
    {
      id: 'moyens',
      title: 'Dons par moyen de paiement',
      columns: ['Moyen', 'Dons', 'Montant', 'Part du montant'],
      rows: r.byMethod.map((m) => [staffMeansLabel(m.provider), f.count(m.gifts), f.money(m.cents), f.percent(share(m.cents, r.total.cents))]),
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
    ...(members ? membershipTables(members, f) : []),
  ];
}
