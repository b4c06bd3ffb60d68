import { Link } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/projects';
import { listQuery } from '~/domain/content/forms';
import { listProjectsPage } from '~/domain/projects/projects.server';
import { requireUser } from '~/lib/auth.server';
import { db } from '~/lib/runtime.server';
import { primaryButton } from '~/ui/admin/Field';
import { EmptyRow, RowActions, ListSearch, Pagination, frDate, td } from '~/ui/admin/content';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'actions' });
  const list = await listProjectsPage(db(), listQuery(new URL(request.url)));
  return {
    list: {
      ...list,
      items: list.items.map((p) => ({ id: p.id, title: p.translations.fr?.title ?? '', image: p.image, date: p.date, location: p.location, status: p.status, active: p.active })),
    },
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Projets / Actions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Projects({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Projets / Actions</h1>
        <Link to="/admin/actions/new" className={primaryButton}>
          Ajouter un projet
        </Link>
      </div>
      <ListSearch list={list} label="Rechercher un projet" placeholder="Titre, lieu…" />
      <AdminTable caption="Projets" columns={['Image', 'Titre', 'Date', 'Lieu', 'Statut', 'Visible']}>
        {list.items.length === 0 && <EmptyRow colSpan={7}>Aucun projet.</EmptyRow>}
        {list.items.map((p) => (
          <tr key={p.id} data-testid="project-row">
            <td className={td}>{p.image ? <img src={p.image} alt="" className="h-12 w-16 rounded object-cover" /> : null}</td>
            <td className={`${td} font-medium text-gray-900`}>{p.title}</td>
            <td className={td}>{frDate(p.date)}</td>
            <td className={td}>{p.location}</td>
            <td className={td}>{p.status}</td>
            <td className={td}>{p.active ? 'Oui' : 'Non'}</td>
            <RowActions base="/admin/actions" id={p.id} name={p.title} what="Le projet" />
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} />
    </div>
  );
}
