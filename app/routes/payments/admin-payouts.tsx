import { Form } from 'react-router';
import type { Route } from './+types/admin-payouts';
import { audit } from '~/domain/audit/audit.server';
import { donationDeps } from '~/domain/donations/deps.server';
import { catchUpFees } from '~/domain/donations/fees-job.server';
import { feeTotals, payoutPeriod, payoutsBetween, type PayoutLine } from '~/domain/donations/payouts.server';
import { PROVIDER_TITLES } from '~/domain/means/providers/names';
import { formatMoney } from '~/lib/currency';
import { dayFr, parisDay } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';

/** A provider as the back office names it (its balance is paid out per provider, whatever the means). */
const providerTitle = (provider: string): string => PROVIDER_TITLES[provider as keyof typeof PROVIDER_TITLES] ?? provider;

/** The payout reconciliation (ADR 033): each payout, the gifts it carried with their fees, and the fees per provider. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'payouts' });
  const period = payoutPeriod(new URL(request.url).searchParams, parisDay(new Date()));
  const db = runtime().db;
  const [payouts, totals] = await Promise.all([payoutsBetween(db, period.from, period.to), feeTotals(db, period.from, period.to)]);
  return { period, payouts, totals };
}

/** "Relire maintenant": what the hourly catch-up does (ADR 033), at once; the layout checked the origin. */
export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'payouts' });
  const deps = await donationDeps(request);
  const r = await catchUpFees(deps);
  await audit(deps.db, actorOf(me), 'payouts.refresh', 'Versements', { ...r });
  const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;
  return {
    message: `${plural(r.asked - r.failed, 'paiement')} relu${r.asked - r.failed > 1 ? 's' : ''}, ${plural(r.payouts, 'versement')} lu${r.payouts > 1 ? 's' : ''}.` + (r.failed ? ` ${plural(r.failed, 'paiement')} sans réponse du prestataire : nouvel essai à la prochaine relecture.` : ''),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Versements | Administration' }, { name: 'robots', content: 'noindex' }];

const STATUS: Record<string, string> = { pending: 'En attente', in_transit: 'En cours', paid: 'Versé', failed: 'Échoué', canceled: 'Annulé' };
const KINDS: Record<string, string> = { payment: 'Don', refund: 'Remboursement', dispute: 'Contestation', other: 'Autre mouvement' };
const money = (minor: number, currency: string) => formatMoney(minor, currency, 'fr');
const day = (iso: string | null) => (iso ? dayFr(parisDay(iso)) : '—');
const cell = 'px-3 py-2';
const num = `${cell} text-right tabular-nums whitespace-nowrap`;

/** A table's caption and headings: the `first` columns, then gross, fee and net (right-aligned). */
function Head({ caption, first }: { caption: string; first: string[] }) {
  return (
    <>
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-gray-50 text-gray-700">
        <tr>
          {first.map((c) => (
            <th key={c} scope="col" className={cell}>{c}</th>
          ))}
          {['Brut', 'Frais', 'Net'].map((c) => (
            <th key={c} scope="col" className={`${cell} text-right`}>{c}</th>
          ))}
        </tr>
      </thead>
    </>
  );
}

function Payout({ p }: { p: PayoutLine }) {
  const caption = `Versement du ${day(p.arrivalAt ?? p.createdAt)} : mouvements`;
  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby={`po-${p.ref}`}>
      <h3 id={`po-${p.ref}`} className="text-lg font-bold text-gray-900">
        {day(p.arrivalAt ?? p.createdAt)} — {money(p.amountMinor, p.currency)}
      </h3>
      <dl className="grid gap-x-6 gap-y-1 text-sm text-gray-800 sm:grid-cols-2">
        <div><dt className="inline font-medium">Moyen : </dt><dd className="inline">{providerTitle(p.provider)}</dd></div>
        <div><dt className="inline font-medium">État : </dt><dd className="inline">{STATUS[p.status] ?? p.status}</dd></div>
        <div><dt className="inline font-medium">Montant sur le relevé bancaire : </dt><dd className="inline">{money(p.amountMinor, p.currency)}</dd></div>
        <div className="break-all"><dt className="inline font-medium">Référence : </dt><dd className="inline">{p.ref}</dd></div>
      </dl>
      {p.moves.length === 0 ? (
        <p className="text-sm text-gray-700">Aucun mouvement connu dans ce versement.</p>
      ) : (
        <ScrollRegion label={caption}>
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <Head caption={caption} first={['Date', 'Donateur']} />
            <tbody className="divide-y divide-gray-100">
              {p.moves.map((m) => (
                <tr key={m.ref}>
                  <td className={`${cell} whitespace-nowrap`}>{day(m.occurredAt)}</td>
                  <td className={cell}>
                    {m.donationId ? (m.donorName ?? 'Donateur anonyme') : KINDS.other}
                    {m.kind !== 'payment' && m.donationId && <span className="block text-xs text-gray-700">{KINDS[m.kind] ?? m.kind}</span>}
                  </td>
                  <td className={num}>{money(m.grossMinor, p.currency)}</td>
                  <td className={num}>{money(m.feeMinor, p.currency)}</td>
                  <td className={num}>{money(m.netMinor, p.currency)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="font-semibold">
              <tr>
                <th scope="row" colSpan={4} className={`${cell} text-right`}>Somme des nets</th>
                <td className={num}>{money(p.netSum, p.currency)}</td>
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      )}
      <p className={`text-sm font-medium ${p.difference === 0 ? 'text-green-800' : 'text-red-700'}`}>
        {p.difference === 0 ? 'La somme des nets est égale au montant versé.' : `Écart entre le montant versé et la somme des nets : ${money(p.difference, p.currency)}.`}
      </p>
    </section>
  );
}

export default function PayoutsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { period, payouts, totals } = loaderData;
  return (
    <div className="max-w-5xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Versements</h1>
      <p className="text-gray-700">
        Ce que chaque prestataire de paiement a retenu sur les dons et ce qu’il a versé sur le compte bancaire, d’après ses propres relevés. Les montants des dons et
        leurs reçus fiscaux n’en changent pas.
      </p>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-40">
          <label htmlFor="du" className="block text-sm font-medium text-gray-900">Du</label>
          <input id="du" type="date" name="du" defaultValue={period.from} className={inputClass(Boolean(period.error))} aria-describedby={period.error ? 'period-error' : undefined} />
        </div>
        <div className="min-w-0 flex-1 basis-40">
          <label htmlFor="au" className="block text-sm font-medium text-gray-900">Au</label>
          <input id="au" type="date" name="au" defaultValue={period.to} className={inputClass(Boolean(period.error))} aria-describedby={period.error ? 'period-error' : undefined} />
        </div>
        <button type="submit" className={primaryButton}>Afficher</button>
      </Form>
      {period.error && <p id="period-error" role="alert" className="text-sm font-medium text-red-700">{period.error}</p>}
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <button type="submit" className={secondaryButton}>Relire maintenant chez les prestataires</button>
        <p className="text-sm text-gray-700">Sinon relu toutes les heures.</p>
      </Form>
      <p role="status" className="text-sm font-medium text-gray-900">{actionData?.message ?? ''}</p>

      <section className="space-y-3" aria-labelledby="fees-title">
        <h2 id="fees-title" className="text-xl font-bold text-gray-900">Frais par moyen de paiement du {dayFr(period.from)} au {dayFr(period.to)}</h2>
        {totals.length === 0 ? (
          <p className="text-gray-700">Aucun mouvement sur la période.</p>
        ) : (
          <ScrollRegion label="Frais par moyen de paiement" className="rounded-lg border border-gray-200 bg-white">
            <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
              <Head caption="Frais par moyen de paiement" first={['Moyen']} />
              <tbody className="divide-y divide-gray-100">
                {totals.map((x) => (
                  <tr key={`${x.provider}-${x.currency}`}>
                    <th scope="row" className={`${cell} font-medium`}>{providerTitle(x.provider)} <span className="block text-xs font-normal text-gray-700">{x.count} mouvement{x.count > 1 ? 's' : ''}</span></th>
                    <td className={num}>{money(x.grossMinor, x.currency)}</td>
                    <td className={num}>{money(x.feeMinor, x.currency)}</td>
                    <td className={num}>{money(x.netMinor, x.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>

      <section className="space-y-4" aria-labelledby="payouts-title">
        <h2 id="payouts-title" className="text-xl font-bold text-gray-900">Versements sur le compte bancaire</h2>
        {payouts.length === 0 ? <p className="text-gray-700">Aucun versement sur la période.</p> : payouts.map((p) => <Payout key={`${p.provider}-${p.ref}`} p={p} />)}
      </section>
    </div>
  );
}
