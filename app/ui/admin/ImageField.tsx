import { useCallback, useEffect, useRef, useState } from 'react';
import { MEDIA_LIBRARY_PATH, MEDIA_PREFIX, type MediaItem, type UploadResult } from '~/domain/media/media';
import { inputClass, secondaryButton } from './Field';
import { useHydrated } from './hooks';
import { DropZone, UploadQueue, announceResults, useUploader } from './MediaUpload';

export interface ImageFieldProps {
  name: string;
  label: string;
  defaultValue?: string;
  error?: string;
  /** What the field holds: an image (default) or a PDF document (membership form). */
  accept?: 'image' | 'pdf';
  id?: string;
}

/** A library address copied as a full URL of this site goes back to its path (`/media/…`), which the pages resolve. */
function normalize(value: string): string {
  if (typeof window === 'undefined') return value;
  const prefix = `${window.location.origin}${MEDIA_PREFIX}`;
  return value.startsWith(prefix) ? value.slice(window.location.origin.length) : value;
}

/**
 * A media field of the content screens: a URL (a file of the media library, `/media/…`, or any
 * https address) with a preview, and 'Choisir dans la médiathèque' to pick (or upload) a file.
 */
export function ImageField({ name, label, defaultValue = '', error, accept = 'image', id = name }: ImageFieldProps) {
  const [value, setValue] = useState(defaultValue);
  const [picking, setPicking] = useState(false);
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  // Where focus goes once the dialog is gone: the field after a pick, the button after a close.
  const focusAfter = useRef<'input' | 'opener' | null>(null);
  useEffect(() => {
    if (picking || !focusAfter.current) return;
    (focusAfter.current === 'input' ? input.current : opener.current)?.focus();
    focusAfter.current = null;
  }, [picking]);
  const hintId = `${id}-hint`;
  const describedBy = [hintId, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap items-start gap-3">
        {accept === 'image' && value ? (
          <img src={value} alt="" className="h-16 w-24 flex-none rounded border border-gray-200 object-cover" />
        ) : null}
        <input
          ref={input}
          id={id}
          name={name}
          type="text"
          inputMode="url"
          value={value}
          onChange={(e) => setValue(normalize(e.target.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClass(Boolean(error)).replace('mt-1 ', '')} min-w-0 flex-1`}
        />
        {hydrated && (
          <button ref={opener} type="button" className={secondaryButton} onClick={() => setPicking(true)} aria-haspopup="dialog">
            Choisir dans la médiathèque<span className="sr-only"> : {label}</span>
          </button>
        )}
      </div>
      <p id={hintId} className="mt-1 text-sm text-gray-600">
        {accept === 'pdf' ? 'Choisissez un PDF de la médiathèque, ou collez une adresse https.' : 'Choisissez une image de la médiathèque, ou collez une adresse https.'}
      </p>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
      {picking && (
        <MediaPicker
          id={`${id}-picker`}
          accept={accept}
          fieldLabel={label}
          onClose={() => {
            focusAfter.current ??= 'opener';
            setPicking(false);
          }}
          onPick={(url) => {
            setValue(url);
            focusAfter.current = 'input';
            setPicking(false);
          }}
        />
      )}
    </div>
  );
}

type LibraryState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: MediaItem[] };

/** The library in a modal dialog: the files of the field's kind, newest first, and an upload zone. */
export function MediaPicker({ id, accept, fieldLabel, onClose, onPick }: { id: string; accept: 'image' | 'pdf'; fieldLabel: string; onClose: () => void; onPick: (url: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [library, setLibrary] = useState<LibraryState>({ status: 'loading' });
  const load = useCallback(async () => {
    try {
      const res = await fetch(`${MEDIA_LIBRARY_PATH}?type=${accept}`, { headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      setLibrary({ status: 'ready', items: ((await res.json()) as { items: MediaItem[] }).items });
    } catch {
      setLibrary({ status: 'error' });
    }
  }, [accept]);
  useEffect(() => {
    dialog.current?.showModal();
    void load();
  }, [load]);
  const onFinished = useCallback(
    (results: UploadResult[]) => {
      announceResults(results);
      const first = results.find((r) => r.ok);
      // One file uploaded from the field: it is the one the editor wants.
      if (first?.ok && results.length === 1) onPick(first.item.url);
      else void load();
    },
    [load, onPick],
  );
  const uploader = useUploader(accept, onFinished);
  const titleId = `${id}-title`;
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[90vh] w-full max-w-3xl overflow-y-auto rounded-xl p-6 shadow-xl backdrop:bg-black/40"
      data-testid="media-picker"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-xl font-bold text-gray-900">
          Médiathèque <span className="block text-base font-normal text-gray-700">{fieldLabel}</span>
        </h2>
        <button type="button" className={secondaryButton} onClick={() => dialog.current?.close()}>
          Fermer
        </button>
      </div>
      <div className="mt-4 space-y-3">
        <DropZone id={`${id}-upload`} accept={accept} disabled={uploader.busy} onFiles={(files) => void uploader.add(files)} />
        <UploadQueue queue={uploader.queue} />
      </div>
      <h3 className="mt-6 font-semibold text-gray-900">{accept === 'pdf' ? 'Documents PDF' : 'Images'}</h3>
      {library.status === 'loading' && <p className="mt-2 text-gray-700" role="status">Chargement…</p>}
      {library.status === 'error' && (
        <p className="mt-2 text-red-800" role="alert">
          La médiathèque n’a pas pu être chargée.
        </p>
      )}
      {library.status === 'ready' && library.items.length === 0 && <p className="mt-2 text-gray-700">Aucun fichier de ce type dans la médiathèque.</p>}
      {library.status === 'ready' && library.items.length > 0 && (
        <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
          {library.items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                onClick={() => onPick(item.url)}
                className="flex w-full flex-col items-stretch gap-1 rounded-md border border-gray-300 p-2 text-left text-sm text-gray-900 hover:border-brand-700 hover:bg-brand-50"
              >
                {item.thumbUrl ? (
                  <img src={item.thumbUrl} alt="" className="aspect-[4/3] w-full rounded object-cover" loading="lazy" />
                ) : (
                  <span aria-hidden="true" className="flex aspect-[4/3] w-full items-center justify-center rounded bg-red-50 font-bold text-red-800">
                    PDF
                  </span>
                )}
                <span className="break-all">{item.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </dialog>
  );
}
