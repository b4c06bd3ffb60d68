import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { showToast } from '~/enhance/toasts';
import type { ServerToast } from '~/ui/site/ToastRegion';
import { fieldErrors, formValues, type FieldErrors } from '~/domain/users/schemas';

let hydratedOnce = false;

/** False while the server's HTML is all there is (and during hydration), true once React runs. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
    // Things marked js-only (the toasts' close button) work from now on.
    document.documentElement.classList.add('js');
  }, []);
  return hydrated;
}

/**
 * Shows a toast that came with a loader's or an action's data, once React runs (before that, the
 * ToastRegion renders it as HTML). `each`: every new data object shows it again (an action's
 * result); `once`: the same words are not repeated when the loader revalidates.
 */
export function useToast(toast: ServerToast | null | undefined, mode: 'each' | 'once' = 'each'): void {
  const hydrated = useHydrated();
  const shown = useRef<unknown>(undefined);
  useEffect(() => {
    if (!hydrated || !toast) return;
    const key = mode === 'once' ? JSON.stringify(toast) : toast;
    if (shown.current === key) return;
    shown.current = key;
    showToast(toast);
  }, [hydrated, toast, mode]);
}

/**
 * Checks a form with its zod schema before it is sent (the action checks it again). Returns the
 * errors to show: the browser's while it has some, else the server's.
 */
export function useFormErrors(schema: z.ZodType, serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const lastServer = useRef(serverErrors);
  if (lastServer.current !== serverErrors) {
    lastServer.current = serverErrors;
    if (clientErrors) setClientErrors(null);
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const result = schema.safeParse(formValues(new FormData(form)));
    if (result.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    const errors = fieldErrors(result.error);
    setClientErrors(errors);
    const first = Object.keys(errors)[0];
    form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };
  return { errors: clientErrors ?? serverErrors ?? {}, onSubmit };
}
