import { Form, Link } from 'react-router';
import type { Route } from './+types/admin-list';
import { listTags } from '~/domain/people/notes.server';
import { PAGE_SIZE, listPeople, type Sort } from '~/domain/people/register.server';
import { getSegment, listSegments, majorThreshold } from '~/domain/people/segments.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, SelectField, choicesOf, inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { PeopleTabs } from '~/ui/admin/people';
import { db, figuresView, listQueryOf, nameFor, peopleUser } from './admin.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await peopleUser(request, context);
  const url = new URL(request.url);
  const query = listQueryOf(url);
  const segment = query.raw.segment ? await getSegment(db(), query.raw.segment) : undefined;
  if (query.raw.segment && !segment) throw new Response('Segment introuvable', { status: 404 });
  const { rows, total } = await listPeople(db(), { ...query, searchEmails: admin, ...(segment ? { segment: { rules: segment.rules, majorCents: await majorThreshold(db()) } } : {}) });
  return {
    admin,
    query: query.raw,
    page: query.page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    tags: (await listTags(db())).map((t) => ({ id: t.id, name: t.name })),
    segments: (await listSegments(db())).map((s) => ({ id: s.id, name: s.name })),
    segmentName: segment?.name ?? '',
    rows: rows.map((r) => ({ id: r.id, name: nameFor(r.name, admin), ...figuresView(r) })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

const COLUMNS: { sort: Sort; label: string }[] = [
  { sort: 'name', label: 'Nom' },
  { sort: 'first', label: 'Premier don' },
  { sort: 'last', label: 'Dernier don' },
  { sort: 'this_year', label: 'Cette année' },
  { sort: 'last_year', label: 'L’an dernier' },
  { sort: 'gifts', label: 'Dons' },
  { sort: 'largest', label: 'Plus grand don' },
];

export default function PeopleList({ loaderData }: Route.ComponentProps) {
  const { admin, query, rows, total, page, pages, tags, segments, segmentName } = loaderData;
  const href = (over: Record<string, string>) => `?${new URLSearchParams(Object.entries({ ...query, ...over }).filter(([, v]) => v !== '')).toString()}`;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Donateurs</h1>
      <PeopleTabs admin={admin} />
      <Form method="get" className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field name="q" label={admin ? 'Rechercher (nom, e-mail)' : 'Rechercher (nom)'} type="search" defaultValue={query.q} maxLength={100} />
        <SelectField
          name="segment"
          label="Segment"
          {...choicesOf(segments)}
          empty="Aucun"
          defaultValue={query.segment}
          hint="Un segment porte sur toutes les fiches."
        />
        <div>
          <label htmlFor="fiches" className="block text-sm font-medium text-gray-900">Fiches</label>
          <select id="fiches" name="fiches" defaultValue={query.fiches} className={inputClass(false)}>
            <option value="">Donateurs (au moins un don)</option>
            <option value="toutes">Toutes (membres et abonnés compris)</option>
          </select>
        </div>
        <div>
          <label htmlFor="etiquette" className="block text-sm font-medium text-gray-900">Étiquette</label>
          <select id="etiquette" name="etiquette" defaultValue={query.etiquette} className={inputClass(false)}>
            <option value="">Toutes</option>
            {tags.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </div>
        <label className="inline-flex min-h-11 items-center gap-3 self-end font-medium text-gray-900">
          <input type="checkbox" name="mensuel" value="1" defaultChecked={query.mensuel === '1'} className="h-5 w-5" /> Donateurs mensuels
        </label>
        <input type="hidden" name="tri" value={query.tri} />
        <input type="hidden" name="ordre" value={query.ordre} />
        <div className="flex flex-wrap items-end gap-3">
          <button type="submit" className={primaryButton}>Filtrer</button>
          <Link to="/admin/donateurs" className={secondaryButton}>Réinitialiser</Link>
        </div>
      </Form>
      <p className="text-gray-700" role="status" data-testid="people-count">{total} fiche{total > 1 ? 's' : ''}{segmentName ? ` dans le segment « ${segmentName} »` : ''}</p>
      {rows.length === 0 ? (
        <p className="text-gray-700">Aucune fiche ne correspond.</p>
      ) : (
        <AdminTable caption="Registre des donateurs" columns={['Nom', 'Premier don', 'Dernier don', 'Cette année', 'L’an dernier', 'Dons', 'Plus grand don', 'Mensuel']}>
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="px-4 py-3 font-medium">{r.name}</td>
              <td className="px-4 py-3 whitespace-nowrap">{r.first}</td>
              <td className="px-4 py-3 whitespace-nowrap">{r.last}</td>
              <td className="px-4 py-3 whitespace-nowrap">{r.thisYear}</td>
              <td className="px-4 py-3 whitespace-nowrap">{r.lastYear}</td>
              <td className="px-4 py-3">{r.gifts}</td>
              <td className="px-4 py-3 whitespace-nowrap">{r.largest}</td>
              <td className="px-4 py-3">{r.monthly ? 'Oui' : 'Non'}</td>
              <td className="px-4 py-3">
                <Link to={`/admin/donateurs/${r.id}`} className="underline">Voir<span className="sr-only"> la fiche de {r.name}</span></Link>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <nav aria-label="Trier la liste" className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-gray-900">Trier par :</span>
        {COLUMNS.map((c) => {
          const active = query.tri === c.sort;
          const desc = active ? query.ordre !== 'desc' : c.sort !== 'name';
          return (
            <Link key={c.sort} to={href({ tri: c.sort, ordre: desc ? 'desc' : '', page: '' })} aria-current={active ? 'true' : undefined} className={`inline-flex min-h-11 items-center rounded-md px-3 underline ${active ? 'bg-gray-100 font-semibold' : ''}`}>
              {c.label}{active ? (query.ordre === 'desc' ? ' ↓' : ' ↑') : ''}
            </Link>
          );
        })}
      </nav>
      {pages > 1 && (
        <nav aria-label="Pages" className="flex flex-wrap items-center gap-3">
          {page > 1 && <Link to={href({ page: String(page - 1) })} className={secondaryButton}>Page précédente</Link>}
          <span className="text-gray-700">Page {page} sur {pages}</span>
          {page < pages && <Link to={href({ page: String(page + 1) })} className={secondaryButton}>Page suivante</Link>}
        </nav>
      )}
    </div>
  );
}
