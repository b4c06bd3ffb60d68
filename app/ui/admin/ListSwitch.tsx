import { useFetcher } from 'react-router';
import type { ServerToast } from '~/ui/site/ToastRegion';
import { Notice } from './Field';
import { useHydrated, useToast } from './hooks';

/** What a list's switch action answers: its toast, and the error shown without JavaScript. */
export interface SwitchAnswer {
  toast: ServerToast;
  error: string | null;
}

/**
 * A row's on/off switch in a list (an article's "Publié", a project's "Visible"): posts the row's
 * `id`, `version` and `name` = the value to switch to, to the list's own action.
 * `values` and `texts` are [off, on].
 */
export function ListSwitch({ id, version, name, on, values, texts, label }: { id: string; version: number; name: string; on: boolean; values: [string, string]; texts: [string, string]; label: string }) {
  const fetcher = useFetcher<SwitchAnswer>();
  const hydrated = useHydrated();
  useToast(fetcher.data?.toast);
  const pending = fetcher.formData?.get(name);
  const checked = pending === undefined || pending === null ? on : pending === values[1];
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="version" value={version} />
      <button
        type="submit"
        name={name}
        value={checked ? values[0] : values[1]}
        role="switch"
        aria-checked={checked}
        aria-label={label}
        className={`relative inline-flex h-7 w-12 flex-none items-center rounded-full transition-colors ${checked ? 'bg-brand-700' : 'bg-gray-400'}`}
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-6' : 'translate-x-1'}`} />
      </button>
      <span className="text-sm text-gray-800" aria-hidden="true">
        {checked ? texts[1] : texts[0]}
      </span>
      {!hydrated && fetcher.data?.error && <Notice tone="error">{fetcher.data.error}</Notice>}
    </fetcher.Form>
  );
}
