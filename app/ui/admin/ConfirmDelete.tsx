import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import type { ServerToast } from '~/ui/site/ToastRegion';
import { dangerButton, primaryButton, secondaryButton } from './Field';
import { useHydrated, useToast } from './hooks';

/** The deletion's fetcher, shared by key: a screen that disappears with its item can still see it is done. */
export const deleteFetcherKey = (href: string) => `delete:${href}`;

/**
 * 'Supprimer' on a list row: 'Êtes-vous sûr ?' in a modal dialog whose body is `children`, posting
 * to the deletion route (`href`) and showing the toast it answers; without JavaScript, a link to
 * that route's own page, which asks the same. The one confirmation of every admin list.
 */
export function ConfirmDeleteButton({ href, itemName, children }: { href: string; itemName: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<{ toast?: ServerToast }>({ key: deleteFetcherKey(href) });
  const [asked, setAsked] = useState(false);
  useToast(fetcher.data?.toast);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data) dialog.current?.close();
  }, [fetcher.state, fetcher.data]);
  if (!hydrated) {
    return (
      <Link to={href} className={`${secondaryButton} text-red-800`}>
        Supprimer<span className="sr-only"> {itemName}</span>
      </Link>
    );
  }
  const titleId = `confirm-${href.replace(/\W/g, '-')}`;
  return (
    <>
      <button
        type="button"
        className={`${secondaryButton} text-red-800`}
        onClick={() => {
          setAsked(true);
          dialog.current?.showModal();
        }}
      >
        Supprimer<span className="sr-only"> {itemName}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setAsked(false)} className="m-auto w-full max-w-md rounded-xl p-6 shadow-xl backdrop:bg-black/40">
        {asked && (
          <>
            <h2 id={titleId} className="text-xl font-bold text-gray-900">
              Êtes-vous sûr ?
            </h2>
            {children}
            <fetcher.Form method="post" action={href} className="mt-6 flex flex-wrap justify-end gap-3">
              <input type="hidden" name="js" value="1" />
              <button type="button" className={secondaryButton} onClick={() => dialog.current?.close()} autoFocus>
                Annuler
              </button>
              <button type="submit" className={dangerButton} disabled={fetcher.state !== 'idle'}>
                Supprimer
              </button>
            </fetcher.Form>
          </>
        )}
      </dialog>
    </>
  );
}

/** What a deletion page shows once done, or when its item is gone: a heading and the way back. */
export function BackToList({ title, to, label }: { title: string; to: string; label: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">{title}</h1>
      <Link to={to} className={primaryButton}>
        {label}
      </Link>
    </div>
  );
}

/** The deletion page's form (without JavaScript): 'Supprimer' posts, 'Annuler' goes back to the list. */
export function ConfirmDeleteForm({ cancelTo }: { cancelTo: string }) {
  const hydrated = useHydrated();
  return (
    <Form method="post" className="flex flex-wrap gap-3">
      {hydrated && <input type="hidden" name="js" value="1" />}
      <button type="submit" className={dangerButton}>
        Supprimer
      </button>
      <Link to={cancelTo} className={secondaryButton}>
        Annuler
      </Link>
    </Form>
  );
}

