import { Link } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/partners';
import { listQuery } from '~/domain/content/forms';
import { PARTNER_TYPE, listPartnersPage } from '~/domain/partners/partners.server';
import { formatParis } from '~/domain/revisions/editorial';
import { scheduledFor } from '~/domain/revisions/workflow.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { primaryButton } from '~/ui/admin/Field';
import { EmptyRow, RowActions, ListSearch, Pagination, td } from '~/ui/admin/content';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'partners' });
  const list = await listPartnersPage(db(), listQuery(new URL(request.url)));
  const scheduled = await scheduledFor(db(), PARTNER_TYPE, list.items.map((p) => p.id));
  return { list: { ...list, items: list.items.map((p) => ({ ...p, scheduledFor: scheduled.has(p.id) ? formatParis(scheduled.get(p.id)!) : null })) } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Partenaires | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Partners({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Partenaires</h1>
        <Link to="/admin/partners/new" className={primaryButton}>
          Ajouter un partenaire
        </Link>
      </div>
      <ListSearch list={list} label="Rechercher un partenaire" placeholder="Nom, site web…" />
      <AdminTable caption="Partenaires" columns={['Logo', 'Nom', 'Site web']}>
        {list.items.length === 0 && <EmptyRow colSpan={4}>Aucun partenaire.</EmptyRow>}
        {list.items.map((p) => (
          <tr key={p.id} data-testid="partner-row">
            <td className={td}>{p.logoUrl ? <img src={p.logoUrl} alt="" className="h-12 w-16 rounded object-contain" /> : null}</td>
            <td className={`${td} font-medium text-gray-900`}>
              {p.name}
              {p.scheduledFor && <p className="mt-1 text-sm font-medium text-amber-900">Programmé pour le {p.scheduledFor}</p>}
            </td>
            <td className={`${td} break-all`}>
              <a href={p.website} target="_blank" rel="noopener noreferrer" className="text-brand-800 underline">
                {p.website}
                <span className="sr-only"> (nouvel onglet)</span>
              </a>
            </td>
            <RowActions base="/admin/partners" id={p.id} name={p.name} what="Le partenaire" />
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} />
    </div>
  );
}
