import { Link } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/pages';
import { MANAGED_PAGES } from '~/domain/content/pages';
import { PAGE_TYPE } from '~/domain/content/pages.server';
import { formatParis } from '~/domain/revisions/editorial';
import { scheduledFor } from '~/domain/revisions/workflow.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { secondaryButton } from '~/ui/admin/Field';
import { td } from '~/ui/admin/content';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'pages' });
  const scheduled = await scheduledFor(db(), PAGE_TYPE, MANAGED_PAGES.map((p) => p.id));
  return { pages: MANAGED_PAGES.map(({ id, name, path }) => ({ id, name, path, scheduledFor: scheduled.has(id) ? formatParis(scheduled.get(id)!) : null })) };
}

export const meta: Route.MetaFunction = () => [{ title: 'Gestion des pages | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Pages({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Gestion des pages</h1>
      <AdminTable caption="Pages du site" columns={['Identifiant', 'Nom', 'Chemin public']}>
        {loaderData.pages.map((p) => (
          <tr key={p.id} data-testid="page-row">
            <td className={`${td} font-mono text-sm`}>{p.id}</td>
            <td className={`${td} font-medium text-gray-900`}>
              {p.name}
              {p.scheduledFor && <p className="mt-1 text-sm font-medium text-amber-900">Programmé pour le {p.scheduledFor}</p>}
            </td>
            <td className={td}>
              <a href={p.path} target="_blank" rel="noopener" className="text-brand-800 underline">
                {p.path}
                <span className="sr-only"> (nouvel onglet)</span>
              </a>
            </td>
            <td className={td}>
              <div className="flex justify-end">
                <Link to={`/admin/pages/edit/${p.id}`} className={secondaryButton}>
                  Modifier<span className="sr-only"> {p.name}</span>
                </Link>
              </div>
            </td>
          </tr>
        ))}
      </AdminTable>
    </div>
  );
}
