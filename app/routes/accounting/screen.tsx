import { Form, Link } from 'react-router';
import type { Route } from './+types/screen';
import { FIRST_FISCAL_YEAR } from '~/domain/accounting/chart';
import { fiscalYearName, fiscalYearOf } from '~/domain/fiscal-year/fiscal-year';
import { balanceOf } from '~/domain/accounting/entries';
import { fecFileName } from '~/domain/accounting/fec';
import { formatMoney } from '~/lib/currency';
import { dayFr, parisDay } from '~/lib/paris';
import { requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { yearFor } from './year.server';

/** How many fiscal years the choice offers, the current one first. */
const YEARS_OFFERED = 8;

/** The accounting export of a fiscal year (ADR 034): its totals, its trial balance, the FEC and CSV to download. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'accounting' });
  const y = await yearFor(request);
  const start = y.settings.fiscalStartMonth;
  const current = fiscalYearOf(start, parisDay(new Date()));
  const years = Array.from({ length: YEARS_OFFERED }, (_, i) => current - i).filter((n) => n >= FIRST_FISCAL_YEAR);
  const euros = (cents: number) => formatMoney(cents, 'EUR');
  return {
    year: y.year,
    name: y.name,
    from: dayFr(y.first),
    to: dayFr(y.last),
    years: years.map((n) => ({ value: String(n), label: fiscalYearName(start, n) })),
    totals: { entries: y.totals.entries, lines: y.totals.lines, debit: euros(y.totals.debit), credit: euros(y.totals.credit), balanced: y.totals.debit === y.totals.credit },
    fecName: y.siren ? fecFileName(y.siren, y.last) : null,
    skipped: { ...y.skipped, notMoneyTotal: euros(y.skipped.notMoney.cents) },
    balance: balanceOf(y.entries).map((a) => ({ ...a, debit: euros(a.debit), credit: euros(a.credit) })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Comptabilité | Administration' }, { name: 'robots', content: 'noindex' }];

export default function AccountingScreen({ loaderData }: Route.ComponentProps) {
  const { year, name, from, to, years, totals, fecName, skipped, balance } = loaderData;
  return (
    <div className="max-w-5xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Comptabilité</h1>
      <p className="text-gray-700">
        Les écritures des dons, cotisations, remboursements, contestations perdues, frais et versements des prestataires de paiement, pour l’expert-comptable : le fichier des écritures
        comptables (FEC) et le même journal en CSV. Les comptes et les journaux se règlent dans le <Link to="/admin/comptabilite/plan" className="underline">plan comptable</Link>.
      </p>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="annee" className="block text-sm font-medium text-gray-900">Exercice</label>
          <select id="annee" name="annee" defaultValue={String(year)} className="mt-1 block min-h-11 rounded-md border border-gray-400 bg-white px-3 py-2 text-base text-gray-900">
            {years.map((y) => (
              <option key={y.value} value={y.value}>{y.label}</option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton}>Afficher</button>
      </Form>
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-6" aria-labelledby="totaux">
        <h2 id="totaux" className="text-xl font-bold text-gray-900">Exercice {name} (du {from} au {to})</h2>
        <dl className="grid gap-2 sm:grid-cols-2">
          <div><dt className="inline font-medium">Écritures : </dt><dd className="inline" data-testid="entries-count">{totals.entries}</dd></div>
          <div><dt className="inline font-medium">Lignes : </dt><dd className="inline">{totals.lines}</dd></div>
          <div><dt className="inline font-medium">Total des débits : </dt><dd className="inline">{totals.debit}</dd></div>
          <div><dt className="inline font-medium">Total des crédits : </dt><dd className="inline">{totals.credit}</dd></div>
        </dl>
        <p className="font-medium">{totals.balanced ? 'Débits et crédits sont égaux : chaque écriture est équilibrée.' : 'Attention : débits et crédits diffèrent.'}</p>
        {skipped.notMoney.gifts > 0 && <p className="text-gray-700">Dons en nature et abandons de frais de l’exercice, hors écritures (aucun argent reçu) : {skipped.notMoney.gifts}, valorisés {skipped.notMoneyTotal}.</p>}
        {skipped.noEuroValue > 0 && <p className="text-gray-700">Paiements sans valeur en euros dans le registre, hors écritures : {skipped.noEuroValue}.</p>}
        {skipped.foreignCurrency > 0 && <p className="text-gray-700">Frais ou versements dans une devise sans taux connu, hors écritures : {skipped.foreignCurrency}.</p>}
        <div className="flex flex-wrap gap-3">
          {fecName ? (
            <a href={`/admin/comptabilite/fec?annee=${year}`} download={fecName} className={primaryButton}>Télécharger le FEC ({fecName})</a>
          ) : (
            <Notice tone="info">Pour nommer le FEC, renseignez le SIREN dans le <Link to="/admin/comptabilite/plan" className="underline">plan comptable</Link>.</Notice>
          )}
          <a href={`/admin/comptabilite/journal.csv?annee=${year}`} className={secondaryButton}>Télécharger le journal (CSV)</a>
        </div>
      </section>
      {balance.length > 0 && (
        <AdminTable caption={`Balance des comptes, exercice ${name}`} columns={['Compte', 'Libellé', 'Débit', 'Crédit']}>
          {balance.map((a) => (
            <tr key={a.num}>
              <td className="px-4 py-3 font-semibold">{a.num}</td>
              <td className="px-4 py-3">{a.label}</td>
              <td className="px-4 py-3 whitespace-nowrap">{a.debit}</td>
              <td className="px-4 py-3 whitespace-nowrap">{a.credit}</td>
              <td />
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
