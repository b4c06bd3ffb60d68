import { Link, data, redirect } from 'react-router';
import type { Route } from './+types/delete';
import { postEditable } from '~/domain/blog/editable.server';
import { deletePost, getPost, postLabel } from '~/domain/blog/posts.server';
import { deleteMessage, getMessage, messageSender } from '~/domain/messages/messages.server';
import { deletePartner, getPartner } from '~/domain/partners/partners.server';
import { deleteProject, getProject, projectLabel } from '~/domain/projects/projects.server';
import { campaignLabel, deleteCampaign, getCampaign } from '~/domain/campaigns/campaigns.server';
import { changedKeys } from '~/domain/revisions/editables.server';
import type { AdminArea } from '~/domain/users/permissions';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db } from '~/lib/runtime.server';
import { ConfirmDeleteForm } from '~/ui/admin/ConfirmDelete';
import { Notice, primaryButton } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';

/**
 * 'Êtes-vous sûr ?' as a page for every content list (projects, posts, partners, messages): the
 * lists' dialogs post here, and browsers without JavaScript open it.
 */
const KINDS = {
  actions: {
    area: 'actions',
    what: 'Le projet',
    notFound: 'Projet introuvable',
    done: 'Projet supprimé !',
    find: async (id: string) => {
      const p = await getProject(db(), id);
      return p && projectLabel(p);
    },
    remove: async (actor: ReturnType<typeof actorOf>, id: string) => {
      const p = await deleteProject(db(), actor, id);
      return p && projectLabel(p);
    },
  },
  blog: {
    area: 'blog',
    what: "L'article",
    notFound: 'Article introuvable',
    done: 'Article supprimé !',
    find: async (id: string) => {
      const p = await getPost(db(), id);
      return p && postLabel(p);
    },
    remove: async (actor: ReturnType<typeof actorOf>, id: string) => {
      const p = await deletePost(db(), actor, id);
      return p && postLabel(p);
    },
  },
  partners: {
    area: 'partners',
    what: 'Le partenaire',
    notFound: 'Partenaire introuvable',
    done: 'Partenaire supprimé !',
    find: async (id: string) => (await getPartner(db(), id))?.name,
    remove: async (actor: ReturnType<typeof actorOf>, id: string) => (await deletePartner(db(), actor, id))?.name,
  },
  campaigns: {
    area: 'campaigns',
    what: 'La campagne',
    notFound: 'Campagne introuvable',
    done: 'Campagne supprimée !',
    find: async (id: string) => {
      const c = await getCampaign(db(), id);
      return c && campaignLabel(c);
    },
    remove: async (actor: ReturnType<typeof actorOf>, id: string) => {
      const c = await deleteCampaign(db(), actor, id);
      return c && campaignLabel(c);
    },
  },
  messages: {
    area: 'messages',
    what: 'Le message de',
    notFound: 'Message introuvable',
    done: 'Message supprimé',
    find: async (id: string) => {
      const m = await getMessage(db(), id);
      return m && messageSender(m);
    },
    remove: async (actor: ReturnType<typeof actorOf>, id: string) => {
      const m = await deleteMessage(db(), actor, id);
      return m && messageSender(m);
    },
  },
} satisfies Record<string, { area: AdminArea; what: string; notFound: string; done: string; find: (id: string) => Promise<string | undefined>; remove: (actor: ReturnType<typeof actorOf>, id: string) => Promise<string | undefined> }>;

type Kind = keyof typeof KINDS;

function kindOf(request: Request): Kind {
  const section = new URL(request.url).pathname.split('/')[2] as Kind;
  if (!(section in KINDS)) throw data('Introuvable', { status: 404 });
  return section;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const kind = kindOf(request);
  await requireUser(request, context, { area: KINDS[kind].area });
  const name = await KINDS[kind].find(params.id);
  const info = { kind, what: KINDS[kind].what, notFound: KINDS[kind].notFound, listPath: `/admin/${kind}` };
  // Not thrown: right after the deletion this page still shows that it is done.
  if (name === undefined) return data({ ...info, name: null }, { status: 404 });
  return { ...info, name };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const kind = kindOf(request);
  const me = await requireUser(request, context, { area: KINDS[kind].area });
  const enhanced = (await request.formData()).get('js') === '1';
  const name = await KINDS[kind].remove(actorOf(me), params.id);
  if (name === undefined) throw data(KINDS[kind].notFound, { status: 404 });
  // A post's pages alone; a project, partner or campaign shows on several: every page.
  if (kind !== 'messages') await contentChanged(kind === 'blog' ? changedKeys(postEditable, params.id) : undefined);
  if (!enhanced) throw redirect(`/admin/${kind}`, 303);
  return { deleted: true, toast: { title: KINDS[kind].done, description: name, variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Supprimer | Administration' }, { name: 'robots', content: 'noindex' }];

export default function ConfirmDelete({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  const { name, what, notFound, listPath } = loaderData;
  const back = (
    <Link to={listPath} className={primaryButton}>
      Retour à la liste
    </Link>
  );
  if (actionData?.deleted) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold text-gray-900">{actionData.toast.title}</h1>
        {back}
      </div>
    );
  }
  if (name === null) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold text-gray-900">{notFound}</h1>
        {back}
      </div>
    );
  }
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Êtes-vous sûr ?</h1>
      {!hydrated && actionData && <Notice tone="error">La suppression a échoué.</Notice>}
      <p className="text-gray-700">
        {what} <strong>{name}</strong> sera supprimé définitivement. Cette action est irréversible.
      </p>
      <ConfirmDeleteForm cancelTo={listPath} />
    </div>
  );
}
