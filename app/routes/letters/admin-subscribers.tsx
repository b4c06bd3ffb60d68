import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-subscribers';
import { leaves, SOURCE_LABELS, STATE_LABELS, SUBSCRIBER_SOURCES, SUBSCRIBER_STATES, subscriberFilterFrom } from '~/domain/subscribers/consent';
import { countByState, listSubscribers } from '~/domain/subscribers/subscribers.server';
import { LANGS } from '~/lib/i18n';
import { db } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';
import { inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';

const SHOWN = 500;
const LANG_LABELS = { fr: 'Français', en: 'English', es: 'Español' } as const;

/**
 * /admin/lettres/abonnes (ADR 022): who receives the letters. Admins see the addresses and the
 * CSV; Éditeurs see the same list without them (they write letters, they do not hold the list).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  // Donors and members join from the letters' job (sources.server.ts), not from this page.
  const filter = subscriberFilterFrom(new URL(request.url).searchParams);
  const showAddresses = user.role === 'Admin';
  // An Éditeur cannot search by address: the search would tell who is on the list.
  const rows = await listSubscribers(db(), showAddresses ? filter : { ...filter, q: undefined }, SHOWN + 1);
  return {
    filter,
    showAddresses,
    counts: await countByState(db()),
    truncated: rows.length > SHOWN,
    subscribers: rows.slice(0, SHOWN).map((s) => ({ id: s.id, email: showAddresses ? s.email : null, language: s.language, source: s.source, status: s.status, updatedAt: s.updatedAt, reason: s.suppressedReason })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Abonnés | Administration' }, { name: 'robots', content: 'noindex' }];

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' });

export default function SubscribersScreen({ loaderData }: Route.ComponentProps) {
  const { filter, showAddresses, counts, subscribers, truncated } = loaderData;
  const params = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Abonnés aux lettres</h1>
        {showAddresses && (
          <a href={`/admin/lettres/abonnes.csv?${params}`} className={secondaryButton} download>
            Exporter en CSV
          </a>
        )}
      </div>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {SUBSCRIBER_STATES.map((s) => (
          <div key={s} className="rounded-lg border border-gray-200 bg-white p-4">
            <dt className="text-sm text-gray-700">{STATE_LABELS[s]}</dt>
            <dd className="text-2xl font-bold text-gray-900" data-testid={`count-${s}`}>{counts[s]}</dd>
          </div>
        ))}
      </dl>
      <Form method="get" className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        {showAddresses && (
          <div>
            <label htmlFor="q" className="block text-sm font-medium text-gray-900">Adresse contient</label>
            <input id="q" name="q" type="search" defaultValue={filter.q ?? ''} className={inputClass(false)} />
          </div>
        )}
        <div>
          <label htmlFor="status" className="block text-sm font-medium text-gray-900">État</label>
          <select id="status" name="status" defaultValue={filter.status ?? ''} className={inputClass(false)}>
            <option value="">Tous</option>
            {SUBSCRIBER_STATES.map((s) => <option key={s} value={s}>{STATE_LABELS[s]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="source" className="block text-sm font-medium text-gray-900">Origine</label>
          <select id="source" name="source" defaultValue={filter.source ?? ''} className={inputClass(false)}>
            <option value="">Toutes</option>
            {SUBSCRIBER_SOURCES.map((s) => <option key={s} value={s}>{SOURCE_LABELS[s]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="language" className="block text-sm font-medium text-gray-900">Langue</label>
          <select id="language" name="language" defaultValue={filter.language ?? ''} className={inputClass(false)}>
            <option value="">Toutes</option>
            {LANGS.map((l) => <option key={l} value={l}>{LANG_LABELS[l]}</option>)}
          </select>
        </div>
        <button type="submit" className={primaryButton}>Filtrer</button>
      </Form>
      {!showAddresses && <p className="text-sm text-gray-700">Les adresses ne sont visibles que des Admins.</p>}
      {truncated && <p className="text-sm text-gray-700">Seuls les {SHOWN} plus récents sont affichés ; l’export CSV les contient tous.</p>}
      {subscribers.length === 0 ? (
        <p className="text-gray-700">Aucun abonné pour ces filtres.</p>
      ) : (
        <ScrollRegion label="Abonnés" className="rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full text-left text-sm" data-testid="subscribers">
            <caption className="sr-only">Abonnés</caption>
            <thead className="bg-gray-50 text-gray-900">
              <tr>
                {showAddresses && <th scope="col" className="px-4 py-3">Adresse</th>}
                <th scope="col" className="px-4 py-3">État</th>
                <th scope="col" className="px-4 py-3">Origine</th>
                <th scope="col" className="px-4 py-3">Langue</th>
                <th scope="col" className="px-4 py-3">Mis à jour (UTC)</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {subscribers.map((s) => (
                <tr key={s.id}>
                  {showAddresses && <td className="px-4 py-3 break-all">{s.email}</td>}
                  <td className="px-4 py-3">
                    {STATE_LABELS[s.status]}
                    {s.reason ? ` : ${s.reason}` : ''}
                    {showAddresses && s.status === 'suppressed' && (
                      <>
                        {' '}
                        <Link to={`/admin/lettres/abonnes/${s.id}/lever`} className="text-brand-800 underline">Lever le blocage</Link>
                      </>
                    )}
                    {showAddresses && leaves(s.status) && (
                      <>
                        {' '}
                        <Link to={`/admin/lettres/abonnes/${s.id}/desabonner`} className="text-brand-800 underline" aria-label={`Désabonner ${s.email}`}>Désabonner</Link>
                      </>
                    )}
                  </td>
                  <td className="px-4 py-3">{SOURCE_LABELS[s.source] ?? s.source}</td>
                  <td className="px-4 py-3">{LANG_LABELS[s.language] ?? s.language}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{dateTime.format(new Date(s.updatedAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}
