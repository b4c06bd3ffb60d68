import { Form, Link, data } from 'react-router';
import { parisYear } from '~/lib/paris';
import type { Route } from './+types/admin-register';
import { runAnnualStatements } from '~/domain/receipts/jobs.server';
import { cancelReceipt, listReceipts, totalsOf } from '~/domain/receipts/register.server';
import { missingFields } from '~/domain/receipts/settings';
import { getReceiptSettings } from '~/domain/receipts/settings.server';
import { euroFigures } from '~/domain/receipts/words';
import { audit } from '~/domain/audit/audit.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { Notice, inputClass, secondaryButton } from '~/ui/admin/Field';
import { AdminTable } from '~/ui/admin/AdminTable';
import { YearPicker } from '~/ui/admin/YearPicker';
import { Figures } from '~/ui/admin/Figures';
import { useToast } from '~/ui/admin/hooks';
import { dateFr, donorLabel, notFound, receiptDeps, yearOf } from './admin-receipts.server';
import { NATURE_LABELS, isNature, issuedByNature, type Nature } from '~/domain/receipts/nature';
import { declarationFigures } from '~/domain/receipts/declaration';
import { REGIMES, REGIME_LABELS } from '~/domain/receipts/regimes';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'receipts' });
  const db = runtime().db;
  const year = yearOf(request);
  const rows = await listReceipts(db, year);
  const settings = await getReceiptSettings(db);
  const totals = totalsOf(rows);
  const byRegime = declarationFigures(rows).regimes;
  return {
    year,
    thisYear: parisYear(new Date()),
    state: !settings.enabled ? 'off' : missingFields(settings).length ? 'incomplete' : 'on',
    annualModel: settings.model === 'annual_monthly',
    totals: { ...totals, issued: euroFigures(totals.issuedCents) },
    natures: Object.entries(issuedByNature(rows)).map(([n, b]) => ({ label: `dont ${NATURE_LABELS[n as Nature].toLowerCase()}`, value: `${euroFigures(b.cents)} (${b.count})` })),
    // Per regime (ADR 035): the receipts numbered this year; the 222 bis declaration counts by the year of the gifts.
    regimes: REGIMES.map((g) => ({ label: `dont ${REGIME_LABELS[g]}`, value: `${euroFigures(byRegime[g].total.cents)} (${byRegime[g].total.count})` })),
    receipts: rows.map((r) => ({ id: r.id, number: r.number, kind: r.kind, issuedAt: dateFr(r.issued_at), donor: donorLabel(r.donor), amount: euroFigures(r.amount_cents), nature: NATURE_LABELS[isNature(r.nature) ? r.nature : 'numeraire'], status: r.status, reason: r.cancel_reason })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'receipts' });
  const form = await request.formData();
  const intent = form.get('intent');
  const db = runtime().db;
  if (intent === 'annual') {
    const year = Number(form.get('year'));
    if (!Number.isInteger(year) || year < 2000 || year > 2100) return data({ toast: { title: 'Année invalide', variant: 'destructive' as const } }, { status: 400 });
    const { issued, mailed } = await runAnnualStatements(receiptDeps(request), year);
    await audit(db, actorOf(me), 'receipts.annual', String(year), { issued: issued.length });
    return { toast: { title: `Reçus annuels ${year} : ${issued.length} émis`, description: `${mailed} envoyé(s) par email.`, variant: 'success' as const } };
  }
  if (intent === 'cancel') {
    const r = await cancelReceipt(db, actorOf(me), String(form.get('id') ?? ''), String(form.get('reason') ?? '').trim().slice(0, 300));
    if (!r.ok) notFound();
    return { toast: { title: `Reçu ${r.receipt.number} annulé`, variant: 'success' as const } };
  }
  return data({ toast: { title: 'Action inconnue', variant: 'destructive' as const } }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: 'Reçus | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ReceiptsRegister({ loaderData, actionData }: Route.ComponentProps) {
  const { year, thisYear, receipts, totals, natures, regimes, state, annualModel } = loaderData;
  useToast(actionData?.toast);
  const years = Array.from({ length: 6 }, (_, i) => thisYear - i);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Reçus fiscaux {year}</h1>
        <div className="flex flex-wrap gap-3">
          <Link to="/admin/receipts/parametres" className={secondaryButton}>Paramètres des reçus</Link>
          <Link to="/admin/receipts/declaration" className={secondaryButton}>Déclaration des dons (222 bis)</Link>
          <a href={`/admin/receipts/export.csv?year=${year}`} className={secondaryButton} download>Exporter en CSV</a>
        </div>
      </div>
      {state !== 'on' && (
        <Notice tone="info" title={state === 'off' ? 'Émission désactivée' : 'Paramètres incomplets'}>
          Aucun nouveau reçu n’est émis. <Link to="/admin/receipts/parametres" className="underline">Compléter les paramètres</Link>
        </Notice>
      )}
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title}>{'description' in actionData.toast ? actionData.toast.description : null}</Notice>}
      <div className="flex flex-wrap items-end gap-4">
        <YearPicker year={year} years={years} label="Année" />
        {annualModel && (
          <Form method="post" className="flex items-end gap-3">
            <input type="hidden" name="intent" value="annual" />
            <div>
              <label htmlFor="annual-year" className="block text-sm font-medium text-gray-900">Reçus annuels des dons mensuels de</label>
              <select id="annual-year" name="year" defaultValue={thisYear - 1} className={inputClass(false)}>
                {years.map((y) => <option key={y} value={y}>{y}</option>)}
              </select>
            </div>
            <button type="submit" className={secondaryButton}>Émettre et envoyer</button>
          </Form>
        )}
      </div>
      <Figures
        items={[
          { label: 'Total des reçus valides (à déclarer)', value: totals.issued, testId: 'receipts-total' },
          { label: 'Reçus valides', value: totals.issuedCount },
          { label: 'Reçus annulés', value: totals.cancelledCount },
          ...natures,
          ...regimes,
        ]}
      />
      {receipts.length === 0 ? (
        <p className="text-gray-700">Aucun reçu émis en {year}.</p>
      ) : (
        <AdminTable caption={`Reçus fiscaux ${year}`} columns={['Numéro', 'Date d’émission', 'Donateur', 'Montant', 'Nature', 'Statut']}>
              {receipts.map((r) => (
                <tr key={r.id}>
                  <td className="px-4 py-3 font-mono whitespace-nowrap">
                    <Link to={`/admin/receipts/${r.id}`} className="underline">{r.number}</Link>
                    {r.kind === 'annual' && <span className="ml-2 text-xs text-gray-700">annuel</span>}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{r.issuedAt}</td>
                  <td className="px-4 py-3">{r.donor}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{r.amount}</td>
                  <td className="px-4 py-3">{r.nature}</td>
                  <td className="px-4 py-3">
                    {r.status === 'issued' ? <span className="rounded-full bg-green-100 px-2.5 py-1 text-xs font-semibold text-green-900">émis</span> : <span className="rounded-full bg-gray-200 px-2.5 py-1 text-xs font-semibold text-gray-900">annulé</span>}
                    {r.reason && <span className="mt-1 block text-xs text-gray-700">{r.reason}</span>}
                  </td>
                  <td className="px-4 py-3">
                    <a href={`/admin/receipts/${r.id}/pdf`} className="underline" download>Télécharger<span className="sr-only"> le reçu {r.number}</span></a>
                  </td>
                </tr>
              ))}
        </AdminTable>
      )}
    </div>
  );
}
