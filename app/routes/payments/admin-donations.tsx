import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-donations';
import { meansKey, staffMeansLabel } from '~/domain/means/means';
import { DONATION_STATUSES, STATUS_LABELS, referenceOf, type DonationStatus } from '~/domain/donations/status';
import { FILTER_MEANS, PERIOD_LABELS } from '~/domain/donations/admin-filters';
import { formatMoney } from '~/lib/currency';
import { requireUser } from '~/routes/admin/auth.server';
import { inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';
import { donationsFor } from './admin-donations.server';
import { issuedReceiptsFor } from '~/domain/receipts/register.server';
import { campaignChoices } from '~/domain/campaigns/campaigns.server';
import { giftStates, type GiftStatus } from '~/domain/donations/monthly.server';
import { runtime } from '~/lib/runtime.server';

const SHOWN = 500;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'donations' });
  const { query, rows } = await donationsFor(request, SHOWN + 1);
  const all = rows.slice(0, SHOWN);
  const succeeded = all.filter((d) => d.status === 'succeeded');
  const receipts = await issuedReceiptsFor(runtime().db, all.map((d) => d.id));
  const gifts = await giftStates(runtime().db, all.filter((d) => d.frequency === 'monthly').map((d) => d.secondary_ref));
  const campaigns = await campaignChoices(runtime().db);
  const campaignTitle = (id: string | null) => (id ? (campaigns.find((c) => c.id === id)?.title ?? id) : '');
  return {
    query,
    campaigns: campaigns.map((c) => ({ id: c.id, title: c.title })),
    truncated: rows.length > SHOWN,
    donations: all.map((d) => ({
      id: d.id,
      createdAt: d.created_at,
      means: meansKey(d),
      ref: d.provider_ref.startsWith('attempt:') ? '' : referenceOf(d),
      status: d.status as DonationStatus,
      amount: formatMoney(d.amount_minor, d.currency, 'fr'),
      eur: d.eur_cents === null ? '' : formatMoney(d.eur_cents, 'EUR', 'fr'),
      frequency: d.frequency,
      // Where the monthly gift stands now (#15): shown beside 'mensuel' unless it is running normally.
      giftState: d.frequency === 'monthly' && d.secondary_ref ? (GIFT_STATE_LABELS[gifts.get(d.secondary_ref) ?? 'active'] ?? '') : '',
      donor: [d.donor_name, d.donor_email].filter(Boolean).join(' · '),
      verifiable: Boolean(d.verifiable),
      error: d.error,
      receipt: receipts.get(d.id) ?? null,
      campaign: campaignTitle(d.campaign_id),
      fee: d.fee_eur_cents > 0 ? formatMoney(d.fee_eur_cents, 'EUR', 'fr') : '',
    })),
    totals: {
      count: all.length,
      succeededCount: succeeded.length,
      succeededEur: formatMoney(succeeded.reduce((s, d) => s + (d.eur_cents ?? 0), 0), 'EUR', 'fr'),
      pending: all.filter((d) => d.status === 'pending').length,
    },
  };
}

/** A monthly gift's state as the list names it; a gift running normally says nothing more. */
const GIFT_STATE_LABELS: Partial<Record<GiftStatus, string>> = { past_due: 'prélèvement en échec', paused: 'en pause', ended: 'arrêté' };

export const meta: Route.MetaFunction = () => [{ title: 'Dons | Administration' }, { name: 'robots', content: 'noindex' }];

const STATUS_STYLE: Record<DonationStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  processing: 'bg-sky-100 text-sky-900',
  succeeded: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
  cancelled: 'bg-gray-200 text-gray-900',
  refunded: 'bg-blue-100 text-blue-900',
  adopted: 'bg-violet-100 text-violet-900',
};

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' });

export default function DonationsScreen({ loaderData }: Route.ComponentProps) {
  const { query, donations, totals, truncated, campaigns } = loaderData;
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v) as [string, string][]);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Dons</h1>
        <div className="flex flex-wrap gap-3">
          <a href={`/admin/donations/export.csv?${params}`} className={secondaryButton} download>
            Exporter en CSV
          </a>
          {/* Donor space (issue #15): a donor's data. Who receives the news is the letters' list (one list, ADR 022). */}
          <Link to="/admin/donations/donateur" className={secondaryButton}>Données d’un donateur</Link>
          <Link to="/admin/lettres/abonnes" className={secondaryButton}>Abonnés aux nouvelles</Link>
        </div>
      </div>
      <Form method="get" className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end">
        <div>
          <label htmlFor="period" className="block text-sm font-medium text-gray-900">Période</label>
          <select id="period" name="period" defaultValue={query.period} className={inputClass(false)}>
            {Object.entries(PERIOD_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="from" className="block text-sm font-medium text-gray-900">Du</label>
          <input id="from" type="date" name="from" defaultValue={query.from} className={inputClass(false)} />
        </div>
        <div>
          <label htmlFor="to" className="block text-sm font-medium text-gray-900">Au</label>
          <input id="to" type="date" name="to" defaultValue={query.to} className={inputClass(false)} />
        </div>
        <div>
          <label htmlFor="provider" className="block text-sm font-medium text-gray-900">Moyen</label>
          <select id="provider" name="provider" defaultValue={query.provider} className={inputClass(false)}>
            <option value="">Tous</option>
            {FILTER_MEANS.map((p) => <option key={p} value={p}>{staffMeansLabel(p)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="status" className="block text-sm font-medium text-gray-900">Statut</label>
          <select id="status" name="status" defaultValue={query.status} className={inputClass(false)}>
            <option value="">Tous</option>
            {DONATION_STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
          </select>
        </div>
        {campaigns.length > 0 && (
          <div>
            <label htmlFor="campaign" className="block text-sm font-medium text-gray-900">Campagne</label>
            <select id="campaign" name="campaign" defaultValue={query.campaign} className={inputClass(false)}>
              <option value="">Toutes</option>
              {campaigns.map((c) => <option key={c.id} value={c.id}>{c.title}</option>)}
            </select>
          </div>
        )}
        <button type="submit" className={primaryButton}>Filtrer</button>
      </Form>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-lg border border-gray-200 bg-white p-4">
          <dt className="text-sm text-gray-700">Total des dons réussis</dt>
          <dd className="text-2xl font-bold text-gray-900" data-testid="total-succeeded">{totals.succeededEur}</dd>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-4">
          <dt className="text-sm text-gray-700">Dons réussis</dt>
          <dd className="text-2xl font-bold text-gray-900">{totals.succeededCount}</dd>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-4">
          <dt className="text-sm text-gray-700">Tentatives (dont en attente)</dt>
          <dd className="text-2xl font-bold text-gray-900">{totals.count} ({totals.pending})</dd>
        </div>
      </dl>
      {truncated && <p className="text-sm text-gray-700">Seuls les {SHOWN} plus récents sont affichés ; l’export CSV les contient tous.</p>}
      {donations.length === 0 ? (
        <p className="text-gray-700">Aucun don pour ces filtres. <Link to="/admin/donations?period=all" className="underline">Voir tous les dons</Link></p>
      ) : (
        <ScrollRegion label="Dons" className="rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Dons</caption>
            <thead className="bg-gray-50 text-gray-900">
              <tr>
                <th scope="col" className="px-4 py-3">Date (UTC)</th>
                <th scope="col" className="px-4 py-3">Moyen</th>
                <th scope="col" className="px-4 py-3">Montant</th>
                <th scope="col" className="px-4 py-3">Valeur EUR</th>
                <th scope="col" className="px-4 py-3">Statut</th>
                <th scope="col" className="px-4 py-3">Donateur</th>
                <th scope="col" className="px-4 py-3">Campagne</th>
                <th scope="col" className="px-4 py-3">Référence</th>
                <th scope="col" className="px-4 py-3">Reçu fiscal</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {donations.map((d) => (
                <tr key={d.id}>
                  <td className="px-4 py-3 whitespace-nowrap">{dateTime.format(new Date(d.createdAt))}</td>
                  <td className="px-4 py-3">{staffMeansLabel(d.means)}{d.frequency === 'monthly' ? ' · mensuel' : ''}{d.giftState ? ` · ${d.giftState}` : ''}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{d.amount}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{d.eur}</td>
                  <td className="px-4 py-3">
                    <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_STYLE[d.status]}`}>{STATUS_LABELS[d.status] ?? d.status}</span>
                    {!d.verifiable && <span className="ml-2 text-xs text-gray-700">non vérifiable</span>}
                    {d.error && <span className="mt-1 block text-xs text-red-800">{d.error}</span>}
                  </td>
                  <td className="px-4 py-3">{d.donor}</td>
                  <td className="px-4 py-3">
                    {d.campaign}
                    {d.fee && <span className="block text-xs text-gray-700">dont frais couverts : {d.fee}</span>}
                  </td>
                  <td className="px-4 py-3 font-mono text-xs break-all">{d.ref}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {d.receipt && (
                      <a href={`/admin/receipts/${d.receipt.id}/pdf`} className="font-mono text-xs underline" download>
                        {d.receipt.number}
                        <span className="sr-only"> (télécharger le PDF)</span>
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}
