import { numberFormat } from '~/lib/intl';

/**
 * Money as integers in a currency's minor unit, and the amount rules of the donate page.
 * Shared with the browser: no server imports.
 */
export const MAX_DONATION_EUR_CENTS = 100_000_00;
/** 1 EUR = 655.957 XOF/XAF: the fixed legal parity of the CFA francs. */
export const CFA_PER_EUR = 655.957;

/** Digits after the decimal point per ISO 4217 for the currencies we charge. */
const EXPONENT: Record<string, number> = { EUR: 2, XOF: 0, XAF: 0, GHS: 2, KES: 2, UGX: 0, RWF: 0, TZS: 2, ZMW: 2 };

export const MOBILE_MONEY_CURRENCIES = ['XOF', 'XAF', 'GHS', 'KES', 'UGX', 'RWF', 'TZS', 'ZMW'] as const;
export type MobileMoneyCurrency = (typeof MOBILE_MONEY_CURRENCIES)[number];

export function exponent(currency: string): number {
  const e = EXPONENT[currency.toUpperCase()];
  if (e === undefined) throw new Error(`unsupported currency ${currency}`);
  return e;
}

export type AmountError = 'missing' | 'invalid' | 'too_small' | 'too_large';

/** The spaces that may separate thousands: a space, or the no-break spaces a French keyboard or a copy puts. */
const SPACE = '[ \\u00a0\\u202f]';
/** "1 000" or "1 000,50": one separator at most, amounts stop at 100 000 €. */
const THOUSANDS_FORM = `[0-9]{1,3}${SPACE}[0-9]{3}(?:[.,][0-9]{1,2})?`;
const THOUSANDS = new RegExp(`^${THOUSANDS_FORM}$`);
const A_SPACE = new RegExp(SPACE);
/** "1 000" or "1 000,50" as "1000" or "1000,50"; anything else as it is. */
export const withoutThousandsSpace = (v: string) => (THOUSANDS.test(v) ? v.replace(A_SPACE, '') : v);

/**
 * The amount fields' HTML `pattern`: the browser lets through what `parseEuroAmount` reads ("20",
 * "20.5", "20,50", "1 000"), so a donor is never stopped before the server for a form it accepts.
 * Limits (zero, 100 000 €) are the server's, with its message. Built from the same thousands form
 * as the parser's.
 */
export const AMOUNT_PATTERN = `${THOUSANDS_FORM}|[0-9]+(?:[.,][0-9]{1,2})?`;

/**
 * Parses what a donor typed as euros ("20", "20.5", "20,50", "1 000") into cents. Refuses negatives,
 * zero, more than two decimals, anything non-numeric, and more than 100 000 €.
 */
export function parseEuroAmount(input: unknown): { ok: true; cents: number } | { ok: false; error: AmountError } {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, error: 'missing' };
  const s = withoutThousandsSpace(input.trim()).replace(',', '.');
  if (s.length > 12 || !/^\d+(\.\d{1,2})?$/.test(s)) return { ok: false, error: 'invalid' };
  const [whole, frac = ''] = s.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  // At most 12 characters: always a safe integer; kept as the rule it states.
  // Stryker disable next-line ConditionalExpression,BooleanLiteral,ObjectLiteral,StringLiteral: unreachable with 12 characters at most
  if (!Number.isSafeInteger(cents)) return { ok: false, error: 'invalid' };
  if (cents <= 0) return { ok: false, error: 'too_small' };
  if (cents > MAX_DONATION_EUR_CENTS) return { ok: false, error: 'too_large' };
  return { ok: true, cents };
}

/** Minor units to the decimal string providers expect ("20.00", "13119"). */
export function toDecimalString(minor: number, currency: string): string {
  const e = exponent(currency);
  if (e === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const unit = 10 ** e;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(e, '0')}`;
}

/** A provider's decimal amount (string or number) back to minor units; null if it is not one. */
export function fromDecimal(value: unknown, currency: string): number | null {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+(\.\d+)?$/.test(s) || EXPONENT[currency.toUpperCase()] === undefined) return null;
  const e = exponent(currency);
  const [whole, frac = ''] = s.split('.');
  if (frac.replace(/0+$/, '').length > e) return null;
  // Stryker disable next-line StringLiteral: Number('') is 0, like Number('0')
  const minor = Number(whole) * 10 ** e + Number((frac + '0'.repeat(e)).slice(0, e) || '0');
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Euro cents to CFA francs at the fixed parity, rounded to the franc. */
export function eurCentsToCfa(cents: number): number {
  return Math.round((cents * CFA_PER_EUR) / 100);
}

/** CFA francs back to euro cents (for the ledger's EUR value). */
export function cfaToEurCents(francs: number): number {
  return Math.round((francs * 100) / CFA_PER_EUR);
}

/** "20,00 €" in the donor's language. */
export function formatMoney(minor: number, currency: string, lang = 'fr'): string {
  const e = exponent(currency);
  return numberFormat(lang, { style: 'currency', currency, minimumFractionDigits: e, maximumFractionDigits: e }).format(minor / 10 ** e);
}
