import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { LANG_LABELS, firstErrorLang, type Paged } from '~/domain/content/forms';
import { LANGS, type Lang } from '~/lib/i18n';
import type { ServerToast } from '~/ui/site/ToastRegion';
import { ConfirmDeleteButton } from './ConfirmDelete';
import { Field, FormActions, Notice, inputClass, secondaryButton } from './Field';
import { useFormErrors, useHydrated, useToast } from './hooks';
import { dateTimeFormat } from '~/lib/intl';

/** Loaded only when a content form is on screen, in the back office (never on a public page). */
const RichTextEditor = lazy(() => import('./RichTextEditor'));

/**
 * A rich field: before JavaScript (and while the editor loads) a plain textarea of HTML, which the
 * server sanitizes just the same; then the editor, writing its HTML into a hidden input.
 */
export function RichTextField({ name, label, defaultValue = '', error, images = false, hint }: { name: string; label: string; defaultValue?: string; error?: string; images?: boolean; hint?: string }) {
  const hydrated = useHydrated();
  const [value, setValue] = useState(defaultValue);
  const id = name.replace(/\W/g, '-');
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const textarea = (
    <textarea
      id={id}
      name={name}
      rows={8}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      className={inputClass(Boolean(error))}
    />
  );
  return (
    <div>
      <label id={`${id}-label`} htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      {hydrated ? (
        <Suspense fallback={textarea}>
          <input type="hidden" name={name} value={value} />
          <RichTextEditor id={id} labelId={`${id}-label`} describedBy={describedBy} invalid={Boolean(error)} value={value} onChange={setValue} images={images} />
        </Suspense>
      ) : (
        textarea
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Tabs fr, en, es (fr first) around a form's translated fields. Every panel stays in the form (a
 * hidden tab's values are sent too); without JavaScript all three are shown one after the other.
 * A tab whose fields have errors says so, and the first such tab opens.
 */
export function LanguageTabs({ errors, children }: { errors: Record<string, string>; children: (lang: Lang) => ReactNode }) {
  const hydrated = useHydrated();
  const [active, setActive] = useState<Lang>(firstErrorLang(errors) ?? 'fr');
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({});
  const errorLang = firstErrorLang(errors);
  useEffect(() => {
    if (errorLang) setActive(errorLang);
  }, [errors, errorLang]);
  const hasError = (lang: Lang) => Object.keys(errors).some((k) => k.startsWith(`${lang}.`));
  const move = (lang: Lang, delta: number) => {
    const next = LANGS[(LANGS.indexOf(lang) + delta + LANGS.length) % LANGS.length];
    setActive(next);
    tabs.current[next]?.focus();
  };
  return (
    <div className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm">
      {hydrated && (
        <div role="tablist" aria-label="Langue du contenu" className="mb-4 flex gap-2 border-b border-gray-200">
          {LANGS.map((lang) => (
            <button
              key={lang}
              ref={(el) => {
                tabs.current[lang] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${lang}`}
              aria-selected={active === lang}
              aria-controls={`panel-${lang}`}
              tabIndex={active === lang ? 0 : -1}
              onClick={() => setActive(lang)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight') move(lang, 1);
                if (e.key === 'ArrowLeft') move(lang, -1);
              }}
              className={`-mb-px min-h-11 border-b-2 px-4 font-semibold ${active === lang ? 'border-brand-700 text-brand-800' : 'border-transparent text-gray-700 hover:text-gray-900'}`}
            >
              {lang.toUpperCase()} <span className="sr-only">{LANG_LABELS[lang]}</span>
              {hasError(lang) && <span className="ml-1 text-red-800">(erreur)</span>}
            </button>
          ))}
        </div>
      )}
      {LANGS.map((lang) => (
        <div
          key={lang}
          id={`panel-${lang}`}
          role={hydrated ? 'tabpanel' : undefined}
          aria-labelledby={hydrated ? `tab-${lang}` : undefined}
          hidden={hydrated && active !== lang}
          lang={lang}
          className="space-y-5"
        >
          {!hydrated && <h3 className="text-lg font-bold text-gray-900">{LANG_LABELS[lang]}</h3>}
          {children(lang)}
        </div>
      ))}
    </div>
  );
}

/** The form of a content screen: checked in the browser first (the action checks again). */
export function ContentForm({
  schema,
  errors: serverErrors,
  version,
  submitLabel,
  cancelTo,
  children,
  actions,
  onInput,
}: {
  schema: z.ZodType;
  errors: Record<string, string> | undefined;
  version?: number;
  submitLabel: string;
  cancelTo: string;
  children: (errors: Record<string, string>) => ReactNode;
  /** Replaces the submit/Annuler row (the editorial workflow's Brouillon/Publier/Programmer buttons). */
  actions?: ReactNode;
  /** Called as the user types (autosave). */
  onInput?: (form: HTMLFormElement) => void;
}) {
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(schema, serverErrors);
  const form = useRef<HTMLFormElement>(null);
  // A field of a hidden tab can only be focused once its tab is open.
  useEffect(() => {
    const first = Object.keys(errors).find((k) => k !== 'form');
    if (!first || !form.current) return;
    const t = setTimeout(() => form.current?.querySelector<HTMLElement>(`[name="${first}"]:not([type=hidden]), #${first.replace(/\W/g, '-')}`)?.focus(), 0);
    return () => clearTimeout(t);
  }, [errors]);
  const count = Object.keys(errors).filter((k) => k !== 'form').length;
  return (
    <Form ref={form} method="post" noValidate={hydrated} onSubmit={onSubmit} onInput={onInput && ((e) => onInput(e.currentTarget))} className="max-w-4xl space-y-6">
      {version !== undefined && <input type="hidden" name="version" value={version} />}
      {errors.form && <Notice tone="error" title="Enregistrement impossible">{errors.form}</Notice>}
      {count > 0 && !errors.form && (
        <Notice tone="error" title="Le formulaire contient des erreurs">
          {count === 1 ? 'Corrigez le champ signalé.' : `Corrigez les ${count} champs signalés.`} Rien n'a été enregistré.
        </Notice>
      )}
      {children(errors)}
      {actions ?? <FormActions submitLabel={submitLabel} cancelTo={cancelTo} />}
    </Form>
  );
}

/** Back to the list once saved, the toast staying in view; without JavaScript a note says it. */
export function useSavedRedirect(actionData: { saved?: boolean; toast?: ServerToast | null } | undefined, to: string) {
  const navigate = useNavigate();
  useToast(actionData?.toast);
  useEffect(() => {
    if (actionData?.saved) navigate(to);
  }, [actionData, navigate, to]);
}

export function SavedNotice({ actionData, to }: { actionData: { saved?: boolean; toast?: ServerToast | null } | undefined; to: string }) {
  const hydrated = useHydrated();
  if (hydrated || !actionData?.saved || !actionData.toast) return null;
  return (
    <Notice tone="success" title={actionData.toast.title}>
      {actionData.toast.description}{' '}
      <Link to={to} className="underline">
        Retour à la liste
      </Link>
    </Notice>
  );
}

/** Search box and result count of a list. */
export function ListSearch({ list, label, placeholder, children }: { list: Paged<unknown>; label: string; placeholder?: string; children?: ReactNode }) {
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
      <Field name="q" label={label} type="search" defaultValue={list.q} placeholder={placeholder} className="w-full max-w-sm" />
      {children}
      <button type="submit" className={secondaryButton}>
        Rechercher
      </button>
      <p className="text-sm text-gray-700" role="status">
        {list.total} résultat{list.total > 1 ? 's' : ''}
        {list.q ? ` pour « ${list.q} »` : ''}
      </p>
    </Form>
  );
}

/** Previous / next pages of a list, keeping its search. */
export function Pagination({ list, extra = {} }: { list: Paged<unknown>; extra?: Record<string, string> }) {
  if (list.pages <= 1) return null;
  const href = (page: number) => `?${new URLSearchParams({ ...extra, ...(list.q ? { q: list.q } : {}), page: String(page) })}`;
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center gap-3">
      {list.page > 1 ? (
        <Link to={href(list.page - 1)} className={secondaryButton} rel="prev">
          Page précédente
        </Link>
      ) : null}
      <span className="text-sm text-gray-700" aria-current="page">
        Page {list.page} sur {list.pages}
      </span>
      {list.page < list.pages ? (
        <Link to={href(list.page + 1)} className={secondaryButton} rel="next">
          Page suivante
        </Link>
      ) : null}
    </nav>
  );
}

/** 'Supprimer' for a content item, with the standard sentence (or `description`) in the confirmation. */
export function DeleteControl({ href, name, what, description }: { href: string; name: string; what: string; description?: ReactNode }) {
  return (
    <ConfirmDeleteButton href={href} itemName={name}>
      <p className="mt-2 text-gray-700">
        {description ?? (
          <>
            {what} <strong>{name}</strong> sera supprimé définitivement.
          </>
        )}{' '}
        Cette action est irréversible.
      </p>
    </ConfirmDeleteButton>
  );
}

/** The last cell of a list's row: 'Modifier' and 'Supprimer' (with its confirmation). */
export function RowActions({ base, id, name, what }: { base: string; id: string; name: string; what: string }) {
  return (
    <td className={td}>
      <div className="flex justify-end gap-2">
        <Link to={`${base}/${id}`} className={secondaryButton}>
          Modifier<span className="sr-only"> {name}</span>
        </Link>
        <DeleteControl href={`${base}/${id}/supprimer`} name={name} what={what} />
      </div>
    </td>
  );
}

export const th = 'px-4 py-3 font-semibold';
export const td = 'px-4 py-3';

export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-6 text-center text-gray-700">
        {children}
      </td>
    </tr>
  );
}

export const frDate = (iso: string) => {
  const d = new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat('fr-FR', { dateStyle: 'medium', timeZone: 'Europe/Paris' }).format(d);
};
