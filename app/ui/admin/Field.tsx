import { Link } from 'react-router';
import { FORGOT_PATH } from '~/domain/users/paths';
import { PASSWORD_MAX, PASSWORD_MIN } from '~/domain/users/schemas';
import type { InputHTMLAttributes, ReactNode } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

export const inputClass = (invalid: boolean) =>
  `mt-1 block min-h-11 w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 ${invalid ? 'border-red-700' : 'border-gray-400'}`;

/** A labelled input with its hint and its error, tied together for screen readers. */
export function Field({ name, label, error, hint, id = name, className = '', ...input }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={inputClass(Boolean(error))} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A labelled select, like `Field`: `options` are its values, shown as `labels` says (else as they
 * are); `empty`, the label of a first option of value "" (none chosen).
 */
export function SelectField({ name, label, options, labels, empty, defaultValue, error, hint, id = name }: {
  name: string;
  label: string;
  options: readonly string[];
  labels?: Readonly<Record<string, string>>;
  empty?: string;
  defaultValue?: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
}) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={inputClass(Boolean(error))}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A `SelectField`'s options and labels from a list of things with an id and a name (segments, campaigns…). */
export const choicesOf = (items: readonly { id: string; name: string }[]) => ({ options: items.map((i) => i.id), labels: Object.fromEntries(items.map((i) => [i.id, i.name])) });

/** A field's hint and error under it, named by `<id>-hint` and `<id>-error`. */
function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      )}
    </>
  );
}

/** A message in the page itself (what a toast says, for browsers without JavaScript too). */
export function Notice({ tone, title, children, testId }: { tone: 'error' | 'success' | 'info'; title?: string; children?: ReactNode; testId?: string }) {
  const styles = { error: 'bg-red-50 text-red-900 border-red-200', success: 'bg-green-50 text-green-900 border-green-200', info: 'bg-blue-50 text-blue-900 border-blue-200' };
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} data-testid={testId} className={`rounded-md border p-4 ${styles[tone]}`}>
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? 'mt-1' : ''}>{children}</div>}
    </div>
  );
}

/** A form's last row: its submit button and 'Annuler' back to where the user came from. */
export function FormActions({ submitLabel, cancelTo }: { submitLabel: string; cancelTo: string }) {
  return (
    <div className="flex flex-wrap gap-3">
      <button type="submit" className={primaryButton}>
        {submitLabel}
      </button>
      <Link to={cancelTo} className={secondaryButton}>
        Annuler
      </Link>
    </div>
  );
}

export const primaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white transition-colors hover:bg-brand-800 disabled:opacity-60';
export const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-md border border-gray-300 bg-white px-5 py-2.5 font-semibold text-gray-900 transition-colors hover:bg-gray-50';
export const dangerButton =
  'inline-flex min-h-11 items-center justify-center rounded-md bg-red-700 px-5 py-2.5 font-semibold text-white transition-colors hover:bg-red-800 disabled:opacity-60';

/** A new password and its confirmation, with the length rule shown (setup, links, own account). */
export function NewPasswordFields({ errors, label = 'Mot de passe', confirmLabel = 'Confirmer le mot de passe' }: { errors: Record<string, string>; label?: string; confirmLabel?: string }) {
  return (
    <>
      <Field
        name="password"
        label={label}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
        hint={`Au moins ${PASSWORD_MIN} caractères.`}
        error={errors.password}
      />
      <Field name="confirm" label={confirmLabel} type="password" autoComplete="new-password" required error={errors.confirm} />
    </>
  );
}

/** The 'Mot de passe oublié ?' link under the sign-in flows' forms. */
export function ForgotLink() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to={FORGOT_PATH} className="text-brand-700 underline">
        Mot de passe oublié ?
      </Link>
    </p>
  );
}
