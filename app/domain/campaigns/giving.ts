/**
 * The donate form's "raise more" options (ADR 014), shared with the browser: the amount added to
 * cover processing fees and the dedication's rules.
 */

/** "2,5" or "2.5" (payment settings) as a number; 0 when the option is off or the value unreadable. */
export function feePercentOf(setting: string | undefined): number {
  const n = Number((setting ?? '').replace(',', '.'));
  return Number.isFinite(n) && n > 0 && n <= 10 ? n : 0;
}

/** The fees a donor adds to a gift of `cents` at `percent`, rounded to the cent (at least 1 cent). */
export function coverFeesCents(cents: number, percent: number): number {
  if (cents <= 0 || percent <= 0) return 0;
  return Math.max(1, Math.round((cents * percent) / 100));
}

export const DEDICATION_KINDS = ['honor', 'memory'] as const;
export type DedicationKind = (typeof DEDICATION_KINDS)[number];
export const DEDICATION_NAME_MAX = 120;
export const DEDICATION_MESSAGE_MAX = 500;
const EMAIL = /^[^\s@<>"']{1,64}@[^\s@<>"']{1,189}\.[^\s@<>"']{2,}$/;

export type DedicationError = 'giving.nameRequired' | 'giving.emailInvalid';

/** The dedication fields of the form: none, a valid one, or the message key of what is wrong. */
export function readDedication(v: { kind: string; name: string; message: string; email: string }):
  | { ok: true; dedication: { kind: DedicationKind; name: string; message: string | null; email: string | null } | null }
  | { ok: false; error: DedicationError } {
  if (!(DEDICATION_KINDS as readonly string[]).includes(v.kind)) return { ok: true, dedication: null };
  const name = v.name.trim().slice(0, DEDICATION_NAME_MAX);
  if (!name) return { ok: false, error: 'giving.nameRequired' };
  const email = v.email.trim();
  if (email && (email.length > 254 || !EMAIL.test(email))) return { ok: false, error: 'giving.emailInvalid' };
  const message = v.message.trim().slice(0, DEDICATION_MESSAGE_MAX);
  return { ok: true, dedication: { kind: v.kind as DedicationKind, name, message: message || null, email: email || null } };
}
