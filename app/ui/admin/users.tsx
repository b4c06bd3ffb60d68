import { useState } from 'react';
import { Form, Link } from 'react-router';
import { USERS_PATH } from '~/domain/users/paths';
import { DEFAULT_ROLE, ROLES, type Role } from '~/domain/users/permissions';
import { EMAIL_MAX, NAME_MAX, userSchema, type FieldErrors } from '~/domain/users/schemas';
import { Field, FormActions, Notice, inputClass, primaryButton, secondaryButton } from './Field';
import { useFormErrors, useHydrated } from './hooks';

export function RoleBadge({ role }: { role: Role }) {
  const style = role === 'Admin' ? 'bg-brand-100 text-brand-800 ring-brand-700/30' : 'bg-blue-50 text-blue-900 ring-blue-700/30';
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${style}`}>{role}</span>;
}

export function StatusBadge({ status }: { status: 'active' | 'invited' }) {
  return status === 'active' ? (
    <span className="text-sm text-green-800">Actif</span>
  ) : (
    <span className="text-sm text-amber-800">Invitation en attente</span>
  );
}

interface UserFormProps {
  defaults?: { name: string; email: string; role: Role; version?: number };
  errors: FieldErrors | undefined;
  submitLabel: string;
}

/** Name, email and role (Éditeur unless chosen otherwise): adding and editing a user. */
export function UserForm({ defaults, errors: serverErrors, submitLabel }: UserFormProps) {
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(userSchema, serverErrors);
  return (
    <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="max-w-xl space-y-5">
      <input type="hidden" name="intent" value="save" />
      {defaults?.version !== undefined && <input type="hidden" name="version" value={defaults.version} />}
      <Field name="name" label="Nom" autoComplete="off" required maxLength={NAME_MAX} defaultValue={defaults?.name} error={errors.name} />
      <Field name="email" label="Email" type="email" autoComplete="off" required maxLength={EMAIL_MAX} defaultValue={defaults?.email} error={errors.email} />
      <div>
        <label htmlFor="role" className="block text-sm font-medium text-gray-900">
          Rôle
        </label>
        <select
          id="role"
          name="role"
          defaultValue={defaults?.role ?? DEFAULT_ROLE}
          aria-invalid={errors.role ? true : undefined}
          aria-describedby={errors.role ? 'role-error' : 'role-hint'}
          className={inputClass(Boolean(errors.role))}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <p id="role-hint" className="mt-1 text-sm text-gray-600">
          Admin : tout le tableau de bord. Éditeur : pages, projets, blog, partenaires, médias et messages.
        </p>
        {errors.role && (
          <p id="role-error" className="mt-1 text-sm text-red-800">
            {errors.role}
          </p>
        )}
      </div>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <FormActions submitLabel={submitLabel} cancelTo={USERS_PATH} />
    </Form>
  );
}

export interface InvitationInfo {
  name: string;
  email: string;
  link: string;
  mailSent: boolean;
  mailText: string;
}

/** The invitation link, shown this once (it is stored only as a hash), with where the mail went. */
export function InvitationPanel({ invitation }: { invitation: InvitationInfo }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(invitation.link);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <section aria-labelledby="invitation-title" className="max-w-2xl space-y-4 rounded-xl border border-gray-200 bg-white p-5 shadow-sm" data-testid="invitation">
      <h2 id="invitation-title" className="text-xl font-bold text-gray-900">
        Invitation pour {invitation.name}
      </h2>
      <Notice tone={invitation.mailSent ? 'success' : 'error'}>{invitation.mailText}</Notice>
      <div>
        <label htmlFor="invitation-link" className="block text-sm font-medium text-gray-900">
          Lien d'invitation (affiché une seule fois, valable 7 jours)
        </label>
        <div className="mt-1 flex gap-2">
          <input id="invitation-link" readOnly value={invitation.link} className={inputClass(false)} onFocus={(e) => e.currentTarget.select()} />
          {hydrated && (
            <button type="button" onClick={copy} className={secondaryButton}>
              {copied ? 'Copié !' : 'Copier'}
            </button>
          )}
        </div>
      </div>
      <Link to={USERS_PATH} className={primaryButton}>
        Retour à la liste
      </Link>
    </section>
  );
}
