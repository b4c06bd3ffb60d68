import { useCallback, useEffect, useRef, useState } from 'react';
import { data, useRevalidator } from 'react-router';
import type { Route } from './+types/list';
import { listMedia, mediaUsage } from '~/domain/media/library.server';
import { MEDIA_ADMIN_PATH, formatDate, formatSize, typeLabel, type MediaItem, type UploadResult } from '~/domain/media/media';
import { receiveUploads, UploadError } from '~/domain/media/upload.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { db, runtime } from '~/lib/runtime.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { ConfirmDeleteButton } from '~/ui/admin/ConfirmDelete';
import { Notice, secondaryButton, primaryButton } from '~/ui/admin/Field';
import { useHydrated } from '~/ui/admin/hooks';
import { DropZone, UploadQueue, UsageWarning, announceResults, useUploader } from '~/ui/admin/MediaUpload';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'media' });
  const items = await listMedia(db());
  return { items, usage: await mediaUsage(db(), items) };
}

/** Uploads without JavaScript: the form posts its files here (with JavaScript, each goes to the upload route). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'media' });
  try {
    const rt = runtime();
    return { results: await receiveUploads(request, rt.db, rt.storage, actorOf(user)), error: null };
  } catch (e) {
    if (e instanceof UploadError) return data({ results: [] as UploadResult[], error: e.message }, { status: e.status });
    throw e;
  }
}

export const meta: Route.MetaFunction = () => [{ title: 'Médiathèque | Administration' }, { name: 'robots', content: 'noindex' }];

/** Copies the file's address; the button says 'URL copiée !' for 2 seconds. */
function CopyButton({ item }: { item: MediaItem }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    const url = new URL(item.url, window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Older browsers, or a denied permission: the selection-based copy.
      const input = document.createElement('textarea');
      input.value = url;
      document.body.append(input);
      input.select();
      document.execCommand('copy');
      input.remove();
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" className={secondaryButton} onClick={copy} data-copied={copied || undefined}>
      <span aria-live="polite">{copied ? 'URL copiée !' : 'Copier l’URL'}</span>
      {!copied && <span className="sr-only"> de {item.name}</span>}
    </button>
  );
}

/** 'Êtes-vous sûr ?' before deleting, with a warning when the file is used; the deletion page does the same without JavaScript. */
function DeleteButton({ item, usage }: { item: MediaItem; usage: string[] | undefined }) {
  return (
    <ConfirmDeleteButton href={`${MEDIA_ADMIN_PATH}/${item.id}/supprimer`} itemName={item.name}>
      <p className="mt-2 text-gray-700">
        Le fichier <strong className="break-all">{item.name}</strong> sera supprimé, avec ses versions redimensionnées. Cette action est irréversible.
      </p>
      <div className="mt-4">
        <UsageWarning usage={usage} />
      </div>
    </ConfirmDeleteButton>
  );
}

function Thumb({ item }: { item: MediaItem }) {
  if (item.thumbUrl) return <img src={item.thumbUrl} alt="" width={64} height={48} loading="lazy" className="h-12 w-16 rounded border border-gray-200 object-cover" />;
  return (
    <span aria-hidden="true" className="flex h-12 w-16 items-center justify-center rounded border border-gray-200 bg-red-50 text-xs font-bold text-red-800">
      PDF
    </span>
  );
}

function ResultNotices({ results, error }: { results: UploadResult[]; error: string | null }) {
  const added = results.filter((r) => r.ok).length;
  return (
    <div className="space-y-3">
      {error && <Notice tone="error" title="Téléversement impossible">{error}</Notice>}
      {added > 0 && (
        <Notice tone="success" title="Téléversement réussi !">
          {added} fichier{added > 1 ? 's' : ''} ajouté{added > 1 ? 's' : ''}.
        </Notice>
      )}
      {results.map((r, i) =>
        r.ok ? null : (
          <Notice key={i} tone="error" title={r.title}>
            {r.message}
          </Notice>
        ),
      )}
    </div>
  );
}

export default function Media({ loaderData, actionData }: Route.ComponentProps) {
  const { items, usage } = loaderData;
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const onFinished = useCallback(
    (results: UploadResult[]) => {
      announceResults(results);
      if (results.some((r) => r.ok)) void revalidator.revalidate();
    },
    [revalidator],
  );
  const uploader = useUploader(undefined, onFinished);
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Médiathèque</h1>
      <section aria-labelledby="upload-title" className="space-y-4 rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <h2 id="upload-title" className="text-xl font-semibold text-gray-900">
          Téléverser des fichiers
        </h2>
        {actionData && <ResultNotices results={actionData.results} error={actionData.error} />}
        <form method="post" encType="multipart/form-data">
          <DropZone id="media-files" accept={undefined} onFiles={(files) => void uploader.add(files)}>
            {!hydrated && (
              <button type="submit" className={`${primaryButton} mt-4`}>
                Téléverser
              </button>
            )}
          </DropZone>
        </form>
        <UploadQueue queue={uploader.queue} />
      </section>
      <section aria-labelledby="files-title" className="space-y-3">
        <h2 id="files-title" className="text-xl font-semibold text-gray-900">
          Fichiers ({items.length})
        </h2>
        {items.length === 0 ? (
          <p className="text-gray-700">Aucun fichier pour le moment.</p>
        ) : (
          <AdminTable caption="Fichiers de la médiathèque, du plus récent au plus ancien" columns={['Aperçu', 'Nom', 'Type', 'Taille', 'Date']}>
                {items.map((item) => (
                  <tr key={item.id} data-testid="media-row">
                    <td className="px-4 py-3"><Thumb item={item} /></td>
                    <td className="max-w-xs px-4 py-3 font-medium break-all text-gray-900">
                      <a href={item.url} target="_blank" rel="noreferrer" className="underline">
                        {item.name}
                      </a>
                      {usage[item.id] && <span className="mt-1 block text-sm font-normal text-gray-700">Utilisé par {usage[item.id].join(', ')}</span>}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-gray-800">{typeLabel(item.mime)}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-gray-800">{formatSize(item.size)}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-gray-800">
                      <time dateTime={item.uploadedAt}>{formatDate(item.uploadedAt)}</time>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-2">
                        {hydrated && <CopyButton item={item} />}
                        <DeleteButton item={item} usage={usage[item.id]} />
                      </div>
                    </td>
                  </tr>
                ))}
          </AdminTable>
        )}
      </section>
    </div>
  );
}
