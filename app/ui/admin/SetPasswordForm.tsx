import { Form } from 'react-router';
import { setPasswordSchema, type FieldErrors } from '~/domain/users/schemas';
import { ForgotLink, NewPasswordFields, Notice, primaryButton } from './Field';
import { useFormErrors, useHydrated } from './hooks';

interface Props {
  title: string;
  intro: string;
  submitLabel: string;
  link: { valid: boolean; name: string; email: string };
  result: { errors: FieldErrors; expired: boolean } | undefined;
}

/** The page behind an invitation or reset link: choose a password (twice), or learn the link is dead. */
export function SetPasswordForm({ title, intro, submitLabel, link, result }: Props) {
  const hydrated = useHydrated();
  const { errors, onSubmit } = useFormErrors(setPasswordSchema, result?.errors);
  if (!link.valid || result?.expired) {
    return (
      <>
        <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
        <div className="mt-6">
          <Notice tone="error" title="Lien invalide ou expiré">
            Ce lien a déjà servi ou n'est plus valable. Demandez un nouveau lien à un administrateur, ou utilisez « Mot de passe oublié ? ».
          </Notice>
        </div>
        <ForgotLink />
      </>
    );
  }
  return (
    <>
      <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
      <p className="mt-2 text-gray-700">
        {intro} <strong>{link.name}</strong> ({link.email})
      </p>
      <Form method="post" noValidate={hydrated} onSubmit={onSubmit} className="mt-6 space-y-5">
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
        <NewPasswordFields errors={errors} label="Nouveau mot de passe" />
        <button type="submit" className={`${primaryButton} w-full`}>
          {submitLabel}
        </button>
      </Form>
    </>
  );
}
