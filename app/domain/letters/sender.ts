import { z } from 'zod';

/**
 * The letters' sender (ADR 022), set by an Admin like the payment settings: the name and address
 * letters come from, and the mailbox the List-Unsubscribe mailto writes to. Unset, letters keep
 * MAIL_FROM and the contact address. Shared with the browser: no server imports.
 */
export interface SenderSettings {
  name: string;
  email: string;
  /** Where a reader's "unsubscribe" mail goes ('' = the site's contact address). */
  unsubscribeMailbox: string;
}

export const SENDER_LIMITS = { name: 80, email: 254 } as const;

const address = z
  .string()
  .trim()
  .max(SENDER_LIMITS.email, { error: `Au plus ${SENDER_LIMITS.email} caractères.` })
  .pipe(z.email({ error: 'Une adresse électronique valide, par exemple lettres@fondation-thv.org.' }));

export const senderSchema = z.object({
  // Quotes, angle brackets and line breaks would break the From header: refused, not escaped.
  name: z
    .string()
    .trim()
    .min(1, { error: 'Le nom de l’expéditeur est obligatoire.' })
    .max(SENDER_LIMITS.name, { error: `Au plus ${SENDER_LIMITS.name} caractères.` })
    .refine((v) => !/["<>\\\r\n]/.test(v), { error: 'Sans guillemets, chevrons ni barre oblique inverse.' }),
  email: z.string().trim().min(1, { error: 'L’adresse d’expédition est obligatoire.' }).pipe(address),
  unsubscribeMailbox: z.union([z.literal(''), address]),
});

/** `"Fondation THV" <lettres@fondation-thv.org>`: the From header of letters. */
export const fromHeader = (s: Pick<SenderSettings, 'name' | 'email'>): string => `"${s.name}" <${s.email}>`;
