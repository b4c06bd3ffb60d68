import { Link, data } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/projects';
import { CONFLICT, listQuery } from '~/domain/content/forms';
import { PROJECT_TYPE, listProjectsPage, setProjectActive } from '~/domain/projects/projects.server';
import { formatParis } from '~/domain/revisions/editorial';
import { scheduledFor } from '~/domain/revisions/workflow.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Notice, primaryButton } from '~/ui/admin/Field';
import { EmptyRow, RowActions, ListSearch, Pagination, frDate, td } from '~/ui/admin/content';
import { useHydrated } from '~/ui/admin/hooks';
import { ListSwitch } from '~/ui/admin/ListSwitch';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'actions' });
  const list = await listProjectsPage(db(), listQuery(new URL(request.url)));
  const scheduled = await scheduledFor(db(), PROJECT_TYPE, list.items.map((p) => p.id));
  return {
    list: {
      ...list,
      items: list.items.map((p) => ({
        id: p.id,
        title: p.translations.fr?.title ?? '',
        image: p.image,
        date: p.date,
        location: p.location,
        status: p.status,
        active: p.active,
        version: p.version,
        scheduledFor: scheduled.has(p.id) ? formatParis(scheduled.get(p.id)!) : null,
      })),
    },
  };
}

/** The list's "Visible" switch: shows or hides a project on the site at once. */
export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'actions' });
  const form = await request.formData();
  const active = String(form.get('active') ?? '');
  const version = Number(form.get('version'));
  const refused = (status: number, text: string) => data({ toast: { title: 'Visibilité non modifiée', description: text, variant: 'destructive' as const }, error: text }, { status });
  if (!['0', '1'].includes(active) || !Number.isInteger(version)) return refused(400, 'Valeur invalide.');
  const result = await setProjectActive(db(), actorOf(me), String(form.get('id') ?? ''), active === '1', version);
  if ('error' in result) return result.error === 'notFound' ? refused(404, 'Ce projet n’existe plus.') : refused(409, CONFLICT);
  await contentChanged();
  const p = result.project;
  return { toast: { title: p.active ? 'Projet affiché sur le site' : 'Projet retiré du site', description: `« ${p.translations.fr.title} »`, variant: 'success' as const }, error: null };
}

export const meta: Route.MetaFunction = () => [{ title: 'Projets / Actions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Projects({ loaderData, actionData }: Route.ComponentProps) {
  const { list } = loaderData;
  const hydrated = useHydrated();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Projets / Actions</h1>
        <Link to="/admin/actions/new" className={primaryButton}>
          Ajouter un projet
        </Link>
      </div>
      {!hydrated && actionData && <Notice tone={actionData.error ? 'error' : 'success'} title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      <ListSearch list={list} label="Rechercher un projet" placeholder="Titre, lieu…" />
      <AdminTable caption="Projets" columns={['Image', 'Titre', 'Date', 'Lieu', 'Statut', 'Visible']}>
        {list.items.length === 0 && <EmptyRow colSpan={7}>Aucun projet.</EmptyRow>}
        {list.items.map((p) => (
          <tr key={`${p.id}-${p.version}`} data-testid="project-row">
            <td className={td}>{p.image ? <img src={p.image} alt="" className="h-12 w-16 rounded object-cover" /> : null}</td>
            <td className={`${td} font-medium text-gray-900`}>{p.title}</td>
            <td className={td}>{frDate(p.date)}</td>
            <td className={td}>{p.location}</td>
            <td className={td}>{p.status}</td>
            <td className={td}>
              <ListSwitch id={p.id} version={p.version} name="active" on={p.active} values={['0', '1']} texts={['Non', 'Oui']} label={`Visible : ${p.title}`} />
              {p.scheduledFor && <p className="mt-1 text-sm font-medium text-amber-900">Programmé pour le {p.scheduledFor}</p>}
            </td>
            <RowActions base="/admin/actions" id={p.id} name={p.title} what="Le projet" />
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} />
    </div>
  );
}
