import type { ToastVariant } from '~/enhance/toasts';

export interface ServerToast {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

/**
 * The notification area (F8). A toast the server already knows about (a form's result) is in the
 * HTML, so it shows without JavaScript; the enhancement script times and dismisses it.
 */
export function ToastRegion({ label, closeLabel, toast }: { label: string; closeLabel: string; toast?: ServerToast | null }) {
  const variant = toast?.variant ?? 'default';
  return (
    <section aria-label={label}>
      <ol data-toast-region data-close-label={closeLabel} tabIndex={-1} className="toast-region">
        {toast && (
          <li className={`toast toast-${variant}`}>
            {/* The live role sits inside the list item: a list may only hold list items. */}
            <div role={variant === 'destructive' ? 'alert' : 'status'} aria-atomic="true">
              <p className="toast-title">{toast.title}</p>
              {toast.description && <p className="toast-description">{toast.description}</p>}
              <button type="button" className="toast-close js-only" data-toast-close aria-label={closeLabel}>
                ×
              </button>
            </div>
          </li>
        )}
      </ol>
    </section>
  );
}
