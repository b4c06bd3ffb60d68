import { useCallback, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { showToast } from '~/enhance/toasts';
import { Notice } from './Field';
import { MEDIA_UPLOAD_PATH, type MediaKind, type UploadResult } from '~/domain/media/media';

/**
 * Uploads from the browser: one request per file (XMLHttpRequest, for its upload progress), to the
 * library's upload route, which checks each file by content and size while it streams.
 */

const readError = (name: string): UploadResult => ({ name, ok: false, title: 'Erreur de lecture', message: `Impossible de lire le fichier ${name}.` });

export function uploadFile(file: File, accept: MediaKind | undefined, onProgress: (fraction: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', accept ? `${MEDIA_UPLOAD_PATH}?type=${accept}` : MEDIA_UPLOAD_PATH);
    xhr.responseType = 'json';
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { results?: UploadResult[]; error?: string } | null;
      const result = body?.results?.[0];
      if (result) resolve(result);
      else if (body?.error) resolve({ name: file.name, ok: false, title: 'Téléversement impossible', message: body.error });
      else if (xhr.responseURL.includes('/admin/login'))
        resolve({ name: file.name, ok: false, title: 'Session expirée', message: 'Reconnectez-vous, puis téléversez de nouveau.' });
      else resolve({ name: file.name, ok: false, title: 'Téléversement impossible', message: `Le fichier ${file.name} n’a pas pu être envoyé (erreur ${xhr.status}).` });
    };
    // The browser could not read the file (moved, deleted, no permission) or the connection dropped.
    xhr.onerror = () => resolve(readError(file.name));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export interface QueuedFile {
  key: number;
  name: string;
  progress: number;
  result?: UploadResult;
}

/** Tells the outcome of a batch in one toast (toasts show one at a time); each file's message stays in the queue. */
export function announceResults(results: UploadResult[]): void {
  const added = results.filter((r) => r.ok).length;
  const failed = results.filter((r): r is Extract<UploadResult, { ok: false }> => !r.ok);
  const files = (n: number) => `${n} fichier${n > 1 ? 's' : ''}`;
  if (added > 0) {
    const refusedNote = failed.length ? ` ${files(failed.length)} non ajouté${failed.length > 1 ? 's' : ''} : voir la liste des envois.` : '';
    showToast({ title: 'Téléversement réussi !', description: `${files(added)} ajouté${added > 1 ? 's' : ''}.${refusedNote}`, variant: 'success' });
  } else if (failed.length === 1) {
    showToast({ title: failed[0].title, description: failed[0].message, variant: 'destructive' });
  } else if (failed.length > 1) {
    showToast({ title: 'Fichiers refusés', description: `${files(failed.length)} non ajoutés : voir la liste des envois.`, variant: 'destructive' });
  }
}

/** A queue of uploads, sent one after the other, each with its progress and its outcome. */
export function useUploader(accept: MediaKind | undefined, onFinished: (results: UploadResult[]) => void) {
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [busy, setBusy] = useState(false);
  const nextKey = useRef(0);
  const add = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const batch = files.map((f) => ({ key: nextKey.current++, name: f.name, progress: 0 }));
      setQueue((q) => [...batch, ...q.filter((item) => !item.result || !item.result.ok)].slice(0, 50));
      setBusy(true);
      const update = (key: number, patch: Partial<QueuedFile>) => setQueue((q) => q.map((item) => (item.key === key ? { ...item, ...patch } : item)));
      const results: UploadResult[] = [];
      for (const [i, file] of files.entries()) {
        const key = batch[i].key;
        const result = await uploadFile(file, accept, (progress) => update(key, { progress }));
        update(key, { progress: 1, result });
        results.push(result);
      }
      setBusy(false);
      onFinished(results);
    },
    [accept, onFinished],
  );
  return { queue, busy, add };
}

/** Each file being sent: its name, a progress bar, then what happened to it. */
export function UploadQueue({ queue }: { queue: QueuedFile[] }) {
  if (queue.length === 0) return null;
  return (
    <ul aria-label="Envois" className="space-y-2" data-testid="upload-queue">
      {queue.map((item) => (
        <li key={item.key} className="rounded-md border border-gray-200 bg-white p-3" data-testid="upload-item">
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="font-medium break-all text-gray-900">{item.name}</span>
            <span role="status" className={item.result && !item.result.ok ? 'text-red-800' : 'text-gray-700'}>
              {!item.result ? `${Math.round(item.progress * 100)} %` : item.result.ok ? 'Ajouté' : `${item.result.title} : ${item.result.message}`}
            </span>
          </div>
          <progress className="upload-progress mt-2 h-2 w-full" max={1} value={item.progress} aria-label={`Progression de ${item.name}`} />
        </li>
      ))}
    </ul>
  );
}

/** The drop zone around a file input: drop files on it, or choose them with the input (keyboard). */
export function DropZone({
  id,
  accept,
  disabled,
  onFiles,
  children,
}: {
  id: string;
  accept: MediaKind | undefined;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
  children?: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) onFiles([...e.dataTransfer.files]);
  };
  const label = accept === 'pdf' ? 'Choisir un PDF' : accept === 'image' ? 'Choisir des images' : 'Choisir des fichiers';
  return (
    <div
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`rounded-xl border-2 border-dashed p-6 text-center ${over ? 'border-brand-700 bg-brand-50' : 'border-gray-400 bg-gray-50'}`}
    >
      <p className="text-gray-800">Déposez vos fichiers ici, ou</p>
      <label htmlFor={id} className="mt-2 block font-semibold text-gray-900">
        {label}
      </label>
      <input
        id={id}
        name="files"
        type="file"
        multiple
        disabled={disabled}
        accept={fileAccept(accept)}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          onFiles(files);
        }}
        className="mx-auto mt-2 block max-w-full text-sm text-gray-900 file:mr-3 file:min-h-11 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-4 file:font-semibold"
      />
      <p id={`${id}-hint`} className="mt-2 text-sm text-gray-700">
        {accept === 'pdf' ? 'PDF jusqu’à 20 Mo.' : accept === 'image' ? 'JPEG, PNG, WebP ou GIF jusqu’à 10 Mo.' : 'Images JPEG, PNG, WebP ou GIF jusqu’à 10 Mo ; PDF jusqu’à 20 Mo.'}
      </p>
      {children}
    </div>
  );
}

export function fileAccept(accept: MediaKind | undefined): string {
  const images = 'image/jpeg,image/png,image/webp,image/gif';
  return accept === 'pdf' ? 'application/pdf' : accept === 'image' ? images : `${images},application/pdf`;
}

/** The warning of a deletion: where the file is used (pages, projects, posts, partners, settings). */
export function UsageWarning({ usage }: { usage: string[] | undefined }) {
  if (!usage?.length) return null;
  return (
    <Notice tone="error" title="Ce fichier est utilisé">
      <p>Il est utilisé par {usage.join(', ')}. Après sa suppression, ces contenus afficheront une image ou un lien manquant.</p>
    </Notice>
  );
}
