import { Link, data } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/posts';
import { POST_STATUSES, PUBLISHED, type PostStatus } from '~/domain/blog/posts';
import { postEditable } from '~/domain/blog/editable.server';
import { POST_TYPE, listPostsPage, setPostStatus } from '~/domain/blog/posts.server';
import { changedKeys } from '~/domain/revisions/editables.server';
import { formatParis } from '~/domain/revisions/editorial';
import { scheduledFor } from '~/domain/revisions/workflow.server';
import { CONFLICT, listQuery } from '~/domain/content/forms';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { Notice, inputClass, primaryButton } from '~/ui/admin/Field';
import { EmptyRow, RowActions, ListSearch, Pagination, frDate, td } from '~/ui/admin/content';
import { useHydrated } from '~/ui/admin/hooks';
import { ListSwitch } from '~/ui/admin/ListSwitch';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'blog' });
  const url = new URL(request.url);
  const statusParam = url.searchParams.get('status') ?? '';
  const status = (POST_STATUSES as readonly string[]).includes(statusParam) ? (statusParam as PostStatus) : undefined;
  const list = await listPostsPage(db(), { ...listQuery(url), status });
  const scheduled = await scheduledFor(db(), POST_TYPE, list.items.map((p) => p.id));
  return {
    status: status ?? '',
    list: {
      ...list,
      items: list.items.map((p) => ({ id: p.id, title: p.translations.fr?.title ?? '', category: p.translations.fr?.category ?? '', image: p.image, author: p.author, date: p.date, status: p.status, version: p.version, scheduledFor: scheduled.has(p.id) ? formatParis(scheduled.get(p.id)!) : null })),
    },
  };
}

/** The list's Brouillon/Publié switch. */
export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'blog' });
  const form = await request.formData();
  const id = String(form.get('id') ?? '');
  const status = String(form.get('status') ?? '');
  const version = Number(form.get('version'));
  if (!(POST_STATUSES as readonly string[]).includes(status) || !Number.isInteger(version)) {
    return data({ toast: { title: 'Statut non modifié', description: 'Statut invalide.', variant: 'destructive' as const }, error: 'Statut invalide.' }, { status: 400 });
  }
  const result = await setPostStatus(db(), actorOf(me), id, status as PostStatus, version);
  if ('error' in result) {
    const text = result.error === 'notFound' ? 'Cet article n’existe plus.' : CONFLICT;
    return data({ toast: { title: 'Statut non modifié', description: text, variant: 'destructive' as const }, error: text }, { status: result.error === 'notFound' ? 404 : 409 });
  }
  await contentChanged(changedKeys(postEditable, id));
  return { toast: { title: 'Statut modifié', description: `« ${result.post.translations.fr.title} » : ${result.post.status}`, variant: 'success' as const }, error: null };
}

export const meta: Route.MetaFunction = () => [{ title: 'Actualités / Blog | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Posts({ loaderData, actionData }: Route.ComponentProps) {
  const { list, status } = loaderData;
  const hydrated = useHydrated();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Actualités / Blog</h1>
        <Link to="/admin/blog/new" className={primaryButton}>
          Ajouter un article
        </Link>
      </div>
      {!hydrated && actionData && <Notice tone={actionData.error ? 'error' : 'success'} title={actionData.toast.title}>{actionData.toast.description}</Notice>}
      <ListSearch list={list} label="Rechercher un article" placeholder="Titre, catégorie, auteur…">
        <div>
          <label htmlFor="status-filter" className="block text-sm font-medium text-gray-900">
            Statut
          </label>
          <select id="status-filter" name="status" defaultValue={status} className={inputClass(false)}>
            <option value="">Tous</option>
            {POST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </ListSearch>
      <AdminTable caption="Articles du blog" columns={['Couverture', 'Titre', 'Catégorie', 'Auteur', 'Date', 'Statut']}>
        {list.items.length === 0 && <EmptyRow colSpan={7}>Aucun article.</EmptyRow>}
        {list.items.map((p) => (
          <tr key={`${p.id}-${p.version}`} data-testid="post-row">
            <td className={td}>{p.image ? <img src={p.image} alt="" className="h-12 w-16 rounded object-cover" /> : null}</td>
            <td className={`${td} font-medium text-gray-900`}>{p.title}</td>
            <td className={td}>{p.category}</td>
            <td className={td}>{p.author}</td>
            <td className={td}>{frDate(p.date)}</td>
            <td className={td}>
              <ListSwitch id={p.id} version={p.version} name="status" on={p.status === PUBLISHED} values={['Brouillon', PUBLISHED]} texts={['Brouillon', 'Publié']} label={`Publié : ${p.title}`} />
              {p.scheduledFor && <p className="mt-1 text-sm font-medium text-amber-900">Programmé pour le {p.scheduledFor}</p>}
            </td>
            <RowActions base="/admin/blog" id={p.id} name={p.title} what="L'article" />
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} extra={status ? { status } : {}} />
    </div>
  );
}
