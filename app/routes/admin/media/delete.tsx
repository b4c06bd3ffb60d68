import { data, redirect } from 'react-router';
import type { Route } from './+types/delete';
import { audit } from '~/domain/audit/audit.server';
import { deleteMedia, getMedia, mediaUsage } from '~/domain/media/library.server';
import { MEDIA_ADMIN_PATH } from '~/domain/media/media';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { contentChanged, db, runtime } from '~/lib/runtime.server';
import { BackToList, ConfirmDeleteForm } from '~/ui/admin/ConfirmDelete';
import { useToast } from '~/ui/admin/hooks';
import { UsageWarning } from '~/ui/admin/MediaUpload';

/** 'Êtes-vous sûr ?' as a page (without JavaScript); the list's dialog posts here too. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'media' });
  const item = await getMedia(db(), params.mediaId);
  // Not thrown: right after the deletion this page still shows that it is done.
  if (!item) return data({ item: null, usage: [] as string[] }, { status: 404 });
  const usage = (await mediaUsage(db(), [item]))[item.id] ?? [];
  return { item: { name: item.name }, usage };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'media' });
  const enhanced = (await request.formData()).get('js') === '1';
  const rt = runtime();
  const deleted = await deleteMedia(rt.db, rt.storage, params.mediaId);
  if (!deleted) throw data('Fichier introuvable', { status: 404 });
  await audit(rt.db, actorOf(me), 'media.delete', deleted.name, { id: deleted.id, mime: deleted.mime });
  await contentChanged();
  if (!enhanced) throw redirect(MEDIA_ADMIN_PATH, 303);
  return { deleted: true, toast: { title: 'Fichier supprimé', description: `${deleted.name} a été supprimé.`, variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Supprimer un fichier | Administration' }, { name: 'robots', content: 'noindex' }];

export default function DeleteMedia({ loaderData, actionData }: Route.ComponentProps) {
  useToast(actionData?.toast);
  if (actionData?.deleted) {
    return <BackToList title={actionData.toast.title} to={MEDIA_ADMIN_PATH} label="Retour à la médiathèque" />;
  }
  const { item, usage } = loaderData;
  if (!item) {
    return <BackToList title="Fichier introuvable" to={MEDIA_ADMIN_PATH} label="Retour à la médiathèque" />;
  }
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Êtes-vous sûr ?</h1>
      <p className="text-gray-700">
        Le fichier <strong className="break-all">{item.name}</strong> sera supprimé, avec ses versions redimensionnées. Cette action est irréversible.
      </p>
      <UsageWarning usage={usage} />
      <ConfirmDeleteForm cancelTo={MEDIA_ADMIN_PATH} />
    </div>
  );
}
