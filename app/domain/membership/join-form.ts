/**
 * The public joining form of /devenir-membre (ADR 021): one Zod schema for the page and its action.
 * Errors are message keys (fr/en/es), one per field, shown beside the field. Shared with the
 * browser: no server imports.
 */
import { z } from 'zod';
import { DONOR_EMAIL } from '~/domain/donations/donor-email';
import type { MessageKey } from '~/lib/i18n';

/** How a joining member pays: online by card, PayPal, mobile money or crypto, or "je paie autrement" (cheque, transfer, cash: a pending membership). */
export const JOIN_METHODS = ['card', 'paypal', 'mobileMoney', 'crypto', 'other'] as const;
export type JoinMethod = (typeof JOIN_METHODS)[number];

export const JOIN_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'address', 'postal_code', 'city', 'country', 'type_id', 'method', 'statutes', 'privacy', 'news'] as const;
export type JoinField = (typeof JOIN_FIELDS)[number];

const k = (key: MessageKey) => key;
const text = (max: number, required: boolean) =>
  z
    .string()
    .trim()
    .max(max, k('join.tooLong'))
    .refine((v) => !required || v !== '', k('join.required'));
const ticked = (message: MessageKey) => z.literal('on', { message });

export const joinSchema = z.object({
  first_name: text(80, true),
  last_name: text(80, true),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => v !== '', k('join.required'))
    .refine((v) => v === '' || (v.length <= 254 && DONOR_EMAIL.test(v)), k('join.invalidEmail')),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\+?[\d\s().-]{6,30}$/.test(v), k('join.invalidPhone')),
  address: text(200, true),
  postal_code: text(12, true),
  city: text(80, true),
  country: text(80, true),
  type_id: z.string().min(1, k('join.chooseType')).max(64, k('join.chooseType')),
  method: z.enum(JOIN_METHODS, { message: k('join.chooseMethod') }),
  statutes: ticked('join.statutesRequired'),
  privacy: ticked('join.privacyRequired'),
  /** Optional: the member's consent to the letters (ADR 022), proof kept as `news_consent_at`. */
  news: z.enum(['', 'on']).transform((v) => v === 'on'),
});
export type JoinInput = z.output<typeof joinSchema>;

export type JoinErrors = Partial<Record<JoinField, MessageKey>>;

/** Reads a submitted form: the input, or the first error of each field (and what was typed, to give it back). */
export function readJoinForm(get: (name: string) => string): { ok: true; input: JoinInput; values: Record<string, string> } | { ok: false; errors: JoinErrors; values: Record<string, string> } {
  const values = Object.fromEntries(JOIN_FIELDS.map((f) => [f, get(f).slice(0, 300)]));
  const parsed = joinSchema.safeParse(values);
  if (parsed.success) return { ok: true, input: parsed.data, values };
  const errors: JoinErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as JoinField;
    errors[field] ??= issue.message as MessageKey;
  }
  return { ok: false, errors, values };
}
