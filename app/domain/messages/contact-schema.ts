import { z } from 'zod';

/** Field limits of the contact form. */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

/**
 * One schema for the browser and the action. Error messages are translation keys under
 * `contact.` so each visitor reads them in their language.
 */
const requiredText = (max: number) =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(max, { error: 'tooLong' });

export const contactSchema = z.object({
  firstName: requiredText(CONTACT_LIMITS.name),
  lastName: requiredText(CONTACT_LIMITS.name),
  email: requiredText(CONTACT_LIMITS.email).pipe(z.email({ error: 'invalidEmail' })),
  message: requiredText(CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;
export type ContactErrorCode = 'required' | 'invalidEmail' | 'tooLong';

export function contactErrors(error: z.ZodError): Partial<Record<ContactField, ContactErrorCode>> {
  const out: Partial<Record<ContactField, ContactErrorCode>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as ContactField;
    if (!out[field]) out[field] = issue.message as ContactErrorCode;
  }
  return out;
}
