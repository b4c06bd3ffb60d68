/**
 * The donate form's "raise more" options (ADR 014), shared with the browser: the amount added to
 * cover processing fees and the dedication's rules.
 */
import { formatMoney } from '~/lib/currency';
import { parseEuroAmount } from '~/domain/donations/money';

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

/**
 * The gift (before fees) the donate form's action will charge, read as it reads it: an amount
 * typed wins over the preset checked; one it would refuse is no amount. Null: none known.
 */
export function giftCents(typed: string, presetCents: number | null): number | null {
  if (typed.trim() === '') return presetCents;
  const a = parseEuroAmount(typed);
  return a.ok ? a.cents : null;
}

/**
 * The figures of the fee line for a gift of `cents` at `percent`, in `lang`: what is added, the
 * gift and the total charged (exactly what `startGift` charges); null without a gift or without fees.
 */
export function feeFigures(cents: number | null, percent: number, lang: string): { fee: string; amount: string; total: string } | null {
  const fee = cents ? coverFeesCents(cents, percent) : 0;
  if (!cents || fee === 0) return null;
  return { fee: formatMoney(fee, 'EUR', lang), amount: formatMoney(cents, 'EUR', lang), total: formatMoney(cents + fee, 'EUR', lang) };
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
