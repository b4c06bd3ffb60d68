import { Form, Link, data } from 'react-router';
import type { Route } from './+types/admin-declaration';
import { tallyLabel } from '~/domain/receipts/declaration';
import { currentFiscalYear, declarationOf, markDeclared } from '~/domain/receipts/declaration.server';
import { REGIMES, REGIME_LABELS } from '~/domain/receipts/regimes';
import { dayInWords, fiscalYear, fiscalYearLabel, fiscalYearName } from '~/domain/fiscal-year/fiscal-year';
import { dayFr } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { YearPicker } from '~/ui/admin/YearPicker';
import { Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { useToast } from '~/ui/admin/hooks';
import { dateFr } from './admin-receipts.server';

/** The first fiscal year declared: the obligation covers gifts received from 2021 on (exercices opened from 1 January 2021). */
const FIRST_DECLARED = 2021;

/** The fiscal year asked for in `?year=` (by the year it opens in), the last closed one otherwise (the one being declared). */
function declaredYear(request: Request, current: number): number {
  const asked = Number(new URL(request.url).searchParams.get('year'));
  return Number.isInteger(asked) && asked >= FIRST_DECLARED && asked <= current ? asked : current - 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const { year: thisYear, startMonth } = await currentFiscalYear(runtime().db);
  const year = declaredYear(request, thisYear);
  const d = await declarationOf(runtime().db, year, startMonth);
  const f = d.figures;
  const years = Array.from({ length: Math.max(1, thisYear - FIRST_DECLARED + 1) }, (_, i) => thisYear - i).filter((y) => y >= FIRST_DECLARED);
  const { first, last } = fiscalYear(startMonth, year);
  return {
    year,
    thisYear,
    years,
    names: years.map((y) => fiscalYearLabel(startMonth, y)),
    title: startMonth === 1 ? String(year) : `de l’exercice ${fiscalYearName(startMonth, year)}`,
    period: startMonth === 1 ? `l’année civile ${year}` : `l’exercice du ${dayInWords(first)} au ${dayInWords(last)}`,
    calendar: startMonth === 1,
    deadline: dayFr(d.deadline),
    done: d.done && { at: dateFr(d.done.at), by: d.done.by },
    rows: REGIMES.map((r) => ({ regime: r, label: REGIME_LABELS[r], money: tallyLabel(f.regimes[r].money), inKind: tallyLabel(f.regimes[r].inKind), total: tallyLabel(f.regimes[r].total) })),
    total: tallyLabel(f.total),
    empty: f.total.count === 0,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'receipts' });
  const form = await request.formData();
  const year = Number(form.get('year'));
  const { year: current, startMonth } = await currentFiscalYear(runtime().db);
  if (form.get('intent') !== 'done' || !Number.isInteger(year) || year < FIRST_DECLARED || year >= current) {
    return data({ toast: { title: 'Exercice invalide : seul un exercice clos se déclare.', variant: 'destructive' as const } }, { status: 400 });
  }
  const name = fiscalYearName(startMonth, year);
  const marked = await markDeclared(runtime().db, actorOf(me), year);
  return { toast: { title: marked ? `Déclaration ${name} marquée comme faite` : `La déclaration ${name} était déjà marquée comme faite`, variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Déclaration des dons (222 bis) | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Declaration({ loaderData, actionData }: Route.ComponentProps) {
  const { year, thisYear, years, names, title, period, calendar, deadline, done, rows, total, empty } = loaderData;
  useToast(actionData?.toast);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Déclaration des dons {title} (article 222 bis du CGI)</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={`/admin/receipts?year=${year}`} className={secondaryButton}>Registre des reçus</Link>
          <a href={`/admin/receipts/declaration.csv?year=${year}`} className={secondaryButton} download>Exporter les chiffres en CSV</a>
        </div>
      </div>
      <p className="max-w-3xl text-gray-800">
        Chaque année, la fondation déclare le nombre de reçus fiscaux délivrés et le montant total des dons qu’ils mentionnent, pour les dons reçus pendant l’exercice
        (ici {period}), par régime : article 200 (particuliers), 238 bis (entreprises) et 978 (IFI). Les reçus annulés ne comptent pas ; un reçu corrigé
        compte une fois. La déclaration se fait avec la déclaration de résultats n° 2070-SD (cadre prévu) si la fondation la dépose, sinon en ligne sur
        demarches-simplifiees.fr (« Déclaration des dons »), au plus tard le <strong>{deadline}</strong> ({calendar ? 'deuxième jour ouvré suivant le 1er mai' : 'trois mois après la clôture de l’exercice'}). Sans reçu délivré, rien n’est à déclarer.
      </p>
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title} />}
      <YearPicker year={year} years={years} names={names} label="Exercice" />
      <AdminTable caption={`Reçus délivrés pour les dons reçus pendant ${period}, par régime`} columns={['Régime', 'Numéraire', 'En nature (biens, abandons de frais)', 'Total']}>
        {rows.map((r) => (
          <tr key={r.regime} data-testid={`declaration-${r.regime}`}>
            <th scope="row" className="px-4 py-3 text-left font-medium">{r.label}</th>
            <td className="px-4 py-3 whitespace-nowrap">{r.money}</td>
            <td className="px-4 py-3 whitespace-nowrap">{r.inKind}</td>
            <td className="px-4 py-3 font-semibold whitespace-nowrap">{r.total}</td>
            <td />
          </tr>
        ))}
        <tr data-testid="declaration-total">
          <th scope="row" className="px-4 py-3 text-left font-bold">Total</th>
          <td />
          <td />
          <td className="px-4 py-3 font-bold whitespace-nowrap">{total}</td>
          <td />
        </tr>
      </AdminTable>
      {done ? (
        <Notice tone="success" title={`Déclaration ${title} faite`} testId="declaration-done">Marquée comme faite le {done.at} par {done.by}.</Notice>
      ) : year < thisYear && !empty ? (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="done" />
          <input type="hidden" name="year" value={year} />
          <button type="submit" className={primaryButton}>Marquer la déclaration {title} comme faite</button>
          <span className="text-sm text-gray-700">Le rappel du tableau de bord s’arrête alors.</span>
        </Form>
      ) : null}
    </div>
  );
}
