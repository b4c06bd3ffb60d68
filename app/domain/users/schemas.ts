import { z } from 'zod';
import { DEFAULT_ROLE, ROLES } from './permissions';
import { issueErrors } from '~/lib/form-errors';

/**
 * One schema per form of the back office, used by the browser (before sending) and by the action
 * (which trusts nothing else). Messages are in French: the admin screens are.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

const email = z
  .string({ error: "L'email est obligatoire." })
  .trim()
  .min(1, { error: "L'email est obligatoire." })
  .max(EMAIL_MAX, { error: `L'email ne peut pas dépasser ${EMAIL_MAX} caractères.` })
  .pipe(z.email({ error: "L'email n'est pas valide." }))
  .transform((v) => v.toLowerCase());

const name = z
  .string({ error: 'Le nom est obligatoire.' })
  .trim()
  .min(1, { error: 'Le nom est obligatoire.' })
  .max(NAME_MAX, { error: `Le nom ne peut pas dépasser ${NAME_MAX} caractères.` });

/** A new password: its length is the rule (no composition rules, NIST SP 800-63B). */
const newPassword = z
  .string({ error: 'Le mot de passe est obligatoire.' })
  .min(PASSWORD_MIN, { error: `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères.` })
  .max(PASSWORD_MAX, { error: `Le mot de passe ne peut pas dépasser ${PASSWORD_MAX} caractères.` });

const passwordPair = {
  password: newPassword,
  confirm: z.string({ error: 'Confirmez le mot de passe.' }),
};
const samePassword = (v: { password: string; confirm: string }) => v.password === v.confirm;
const mismatch = { error: 'Les deux mots de passe ne correspondent pas.', path: ['confirm'] };

export const loginSchema = z.object({
  email,
  // Not the new-password rule: an existing password is checked, whatever its length.
  password: z
    .string({ error: 'Le mot de passe est obligatoire.' })
    .min(1, { error: 'Le mot de passe est obligatoire.' })
    .max(1024, { error: 'Email ou mot de passe incorrect.' }),
});

export const setupSchema = z.object({ name, email, ...passwordPair }).refine(samePassword, mismatch);

export const setPasswordSchema = z.object(passwordPair).refine(samePassword, mismatch);

export const changePasswordSchema = z
  .object({ current: z.string().min(1, { error: 'Saisissez votre mot de passe actuel.' }).max(1024), ...passwordPair })
  .refine(samePassword, mismatch);

export const forgotPasswordSchema = z.object({ email });

export const userSchema = z.object({
  name,
  email,
  role: z.enum(ROLES, { error: 'Choisissez un rôle.' }).default(DEFAULT_ROLE),
});

export type UserInput = z.infer<typeof userSchema>;

/** Field → first message, the shape every admin form shows. */
export type FieldErrors = Record<string, string>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  return issueErrors(error.issues, (path) => String(path[0] ?? 'form'));
}

/** FormData → plain object of its string values (files and repeated keys are not used here). */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string') out[k] = v;
  return out;
}
