import { Form } from 'react-router';
import type { Route } from './+types/screen';
import { PERIOD_LABELS } from '~/domain/donations/admin-filters';
import { formatMoney } from '~/lib/currency';
import { staffMeansLabel } from '~/domain/means/means';
import { change, reportTables, share, type ReportFormat, type ReportTable } from '~/domain/reports/tables';
import { requireUser } from '~/routes/admin/auth.server';
import { ComparisonChart, ShareChart, type ComparisonPoint } from '~/ui/admin/charts';
import { inputClass, primaryButton } from '~/ui/admin/Field';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';
import { reportFor } from './report.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'reports' });
  return reportFor(request);
}

export const meta: Route.MetaFunction = () => [{ title: 'Rapports | Administration' }, { name: 'robots', content: 'noindex' }];

const integer = new Intl.NumberFormat('fr-FR');
const percent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 1 });
const signedPercent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const monthName = new Intl.DateTimeFormat('fr-FR', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortMonth = new Intl.DateTimeFormat('fr-FR', { month: 'short', timeZone: 'UTC' });
const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' });
const euros = (cents: number) => formatMoney(cents, 'EUR', 'fr');
/** What every section says when the period has no gift (its chart then draws no axis). */
const NO_GIFT = 'Aucun don sur la période';
/** The same for the membership sections (ADR 021). */
const NO_DUES = 'Aucune cotisation sur la période';
const NO_MEMBER_MOVE = 'Aucun nouveau membre, renouvellement ni adhésion expirée sur la période';

/** The sentence under a comparison chart: the period's amount and count, and its change from a year earlier. */
function compared(count: number, cents: number, countBefore: number, centsBefore: number, w: { none: string; noneBefore: string; unit: string; verb: string }): string {
  if (count === 0) return `${w.none}${countBefore === 0 ? '.' : ` ; ${euros(centsBefore)} sur les mêmes mois un an plus tôt.`}`;
  const evolution = change(cents, centsBefore);
  return (
    `${euros(cents)} ${w.verb} en ${integer.format(count)} ${w.unit} sur la période` +
    (evolution === null ? `, ${w.noneBefore} sur les mêmes mois un an plus tôt.` : ` : ${signedPercent.format(evolution)} par rapport aux mêmes mois un an plus tôt (${euros(centsBefore)}).`)
  );
}

const SCREEN_FORMAT: ReportFormat = {
  money: euros,
  count: (n) => integer.format(n),
  percent: (ratio, signed) => (ratio === null ? '—' : (signed ? signedPercent : percent).format(ratio)),
  month: (month) => monthName.format(new Date(`${month}-01T00:00:00Z`)),
};

export default function ReportsScreen({ loaderData }: Route.ComponentProps) {
  const { query, report: r, members: m } = loaderData;
  const tables = reportTables(r, SCREEN_FORMAT, m);
  const table = (id: ReportTable['id']) => tables.find((t) => t.id === id)!;
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v) as [string, string][]);
  const csv = (id: ReportTable['id']) => `/admin/rapports/export.csv?${new URLSearchParams([...params, ['table', id]])}`;
  const lastDay = new Date(Date.parse(r.to) - 1);
  const top = r.byMethod[0];
  const monthlyShare = share(r.byFrequency.monthly.cents, r.total.cents);

  const memberMoves = [
    { label: 'Nouveaux membres', value: m.totals.new },
    { label: 'Renouvellements', value: m.totals.renewed },
    { label: 'Adhésions expirées', value: m.totals.lapsed },
  ];
  const moves = m.totals.new + m.totals.renewed + m.totals.lapsed;
  const sentences = {
    months: compared(r.total.gifts, r.total.cents, r.previousTotal.gifts, r.previousTotal.cents, { none: NO_GIFT, noneBefore: 'sans don', unit: 'dons', verb: 'reçus' }),
    dues: compared(m.totals.dues.dues, m.totals.dues.cents, m.totals.previousDues.dues, m.totals.previousDues.cents, { none: NO_DUES, noneBefore: 'sans cotisation', unit: 'cotisations', verb: 'encaissés' }),
    members:
      moves === 0
        ? `${NO_MEMBER_MOVE} ; ${integer.format(m.activeAtEnd)} membres à jour à la fin.`
        : `${integer.format(m.totals.new)} nouveaux membres, ${integer.format(m.totals.renewed)} renouvellements et ${integer.format(m.totals.lapsed)} adhésions expirées sur la période ; ${integer.format(m.activeAtEnd)} membres à jour à la fin.`,
    methods: top ? `${staffMeansLabel(top.provider)} apporte la plus grande part du montant : ${percent.format(share(top.cents, r.total.cents) ?? 0)}.` : `${NO_GIFT}.`,
    frequency: monthlyShare === null ? `${NO_GIFT}.` : `Les dons mensuels font ${percent.format(monthlyShare)} du montant de la période.`,
    donors:
      r.total.gifts === 0
        ? `${NO_GIFT}.`
        : `${integer.format(r.donors.new)} nouveaux donateurs et ${integer.format(r.donors.returning)} donateurs fidèles sur la période.`,
  };

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold text-gray-900">Rapports</h1>
        <p className="mt-2 text-gray-700">
          Du {day.format(new Date(r.from))} au {day.format(lastDay)} (UTC) : dons réussis en euros, francs CFA convertis à la parité légale (1 € = 655,957 F CFA), remboursements déduits.
        </p>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-4 rounded-lg border border-gray-200 bg-white p-4">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor="period" className="block text-sm font-medium text-gray-900">Période</label>
          <select id="period" name="period" defaultValue={query.period} className={inputClass(false)}>
            <option value="12-months">Les 12 derniers mois</option>
            {Object.entries(PERIOD_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 flex-1 basis-40">
          <label htmlFor="from" className="block text-sm font-medium text-gray-900">Du</label>
          <input id="from" type="date" name="from" defaultValue={query.from} className={inputClass(false)} />
        </div>
        <div className="min-w-0 flex-1 basis-40">
          <label htmlFor="to" className="block text-sm font-medium text-gray-900">Au</label>
          <input id="to" type="date" name="to" defaultValue={query.to} className={inputClass(false)} />
        </div>
        <button type="submit" className={primaryButton}>Afficher</button>
      </Form>

      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {[
          ['Montant de la période', euros(r.total.cents)],
          ['Don moyen / médian', `${r.averageCents === null ? '—' : euros(r.averageCents)} / ${r.medianCents === null ? '—' : euros(r.medianCents)}`],
          ['Donateurs mensuels actifs', `${integer.format(r.monthly.activeDonors)} (${euros(r.monthly.recurringCents)} par mois)`],
          ['Fidélisation sur un an', SCREEN_FORMAT.percent(share(r.retention.retained, r.retention.previousDonors))],
          // Not money (ADR 030): valued in euros, never added to the amounts above.
          ['Dons en nature (hors montants)', `${euros(r.notMoney.in_kind.cents)} (${integer.format(r.notMoney.in_kind.gifts)})`],
          ['Abandons de frais (hors montants)', `${euros(r.notMoney.waived_expenses.cents)} (${integer.format(r.notMoney.waived_expenses.gifts)})`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-gray-200 bg-white p-4">
            <dt className="text-sm text-gray-700">{label}</dt>
            <dd className="mt-1 text-xl font-bold text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>

      <ReportSection table={table('mois')} csv={csv('mois')}>
        <MonthlyAmounts title="Montant des dons par mois, comparé aux mêmes mois un an plus tôt" summary={sentences.months} points={r.months.map((x, i) => monthPoint(x.month, i, x.current.cents, x.previous.cents))} />
      </ReportSection>
      <ReportSection table={table('moyens')} csv={csv('moyens')}>
        <ShareChart title="Montant des dons par moyen de paiement" summary={sentences.methods} items={r.byMethod.map((m) => ({ label: staffMeansLabel(m.provider), value: m.cents }))} format={euros} />
      </ReportSection>
      <ReportSection table={table('frequence')} csv={csv('frequence')}>
        <ShareChart
          title="Montant des dons ponctuels et mensuels"
          summary={sentences.frequency}
          items={[
            { label: 'Ponctuels', value: r.byFrequency.once.cents },
            { label: 'Mensuels', value: r.byFrequency.monthly.cents },
          ]}
          format={euros}
        />
      </ReportSection>
      <ReportSection table={table('donateurs')} csv={csv('donateurs')}>
        <ShareChart
          title="Nouveaux donateurs et donateurs fidèles"
          summary={sentences.donors}
          items={[
            { label: 'Nouveaux', value: r.donors.new },
            { label: 'Fidèles', value: r.donors.returning },
          ]}
          format={(n) => integer.format(n)}
        />
      </ReportSection>
      <ReportSection table={table('adhesions')} csv={csv('adhesions')}>
        <ShareChart title="Nouveaux membres, renouvellements et adhésions expirées" summary={sentences.members} items={memberMoves} format={(n) => integer.format(n)} />
        <p className="text-sm text-gray-700">
          Membres à jour : à jour, à renouveler bientôt, en délai de grâce ou d’honneur au dernier jour du mois (jours de Paris). Nouveaux : première cotisation payée dans le mois ; renouvellements : les
          suivantes ; adhésions expirées : passées à « Expirée » dans le mois, au lendemain du délai de grâce. Les cotisations remboursées ou annulées sont déduites.
        </p>
      </ReportSection>
      <ReportSection table={table('cotisations')} csv={csv('cotisations')}>
        <MonthlyAmounts title="Montant des cotisations par mois, comparé aux mêmes mois un an plus tôt" summary={sentences.dues} points={m.months.map((x, i) => monthPoint(x.month, i, x.dues.cents, x.previousDues.cents))} />
      </ReportSection>
      <ReportSection table={table('indicateurs')} csv={csv('indicateurs')}>
        <p className="text-sm text-gray-700">
          Donateurs mensuels actifs : un don mensuel reçu dans les 31 jours avant le {day.format(new Date(r.monthly.asOf))} ; fidélisation : part des donateurs du {day.format(new Date(yearBefore(r.retention.from)))} au{' '}
          {day.format(new Date(Date.parse(r.retention.from) - 1))} qui ont redonné dans les douze mois suivants.
        </p>
      </ReportSection>
    </div>
  );
}

/** Amounts per month in euros, bars for the period and dots for a year earlier (the gifts' and the dues'). */
function MonthlyAmounts({ title, summary, points }: { title: string; summary: string; points: ComparisonPoint[] }) {
  return <ComparisonChart title={title} summary={summary} points={points} currentLabel="Période choisie (barres)" previousLabel="Un an plus tôt (pointillés)" format={(cents) => `${integer.format(Math.round(cents / 100))} €`} />;
}

/** A month of a comparison chart: its name, its axis tick, its year under the first and each January. */
function monthPoint(month: string, i: number, current: number, previous: number): ComparisonPoint {
  return { label: SCREEN_FORMAT.month(month), tick: shortMonth.format(new Date(`${month}-01T00:00:00Z`)), year: i === 0 || month.endsWith('-01') ? month.slice(0, 4) : undefined, current, previous };
}

function yearBefore(iso: string): string {
  return `${Number(iso.slice(0, 4)) - 1}${iso.slice(4)}`;
}

/** A report's heading, its chart (children), its table in a focusable scrolling region, and its CSV. */
function ReportSection({ table, csv, children }: { table: ReportTable; csv: string; children: React.ReactNode }) {
  const headingId = `rapport-${table.id}`;
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-xl font-bold text-gray-900">
          {table.title}
        </h2>
        <a href={csv} download className="inline-flex min-h-11 items-center font-medium text-brand-700 underline">
          Télécharger en CSV<span className="sr-only"> : {table.title}</span>
        </a>
      </div>
      {children}
      <ScrollRegion label={`Tableau : ${table.title}`}>
        <table className="min-w-full text-left text-sm" data-report-table={table.id}>
          <caption className="sr-only">{table.title}</caption>
          <thead className="bg-gray-50 text-gray-900">
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col" className="px-3 py-2 font-semibold">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200">
            {table.rows.map((row) => (
              <tr key={row[0]}>
                {row.map((v, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-3 py-2 font-medium whitespace-nowrap">
                      {v}
                    </th>
                  ) : (
                    <td key={i} className="px-3 py-2 whitespace-nowrap">
                      {v}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
