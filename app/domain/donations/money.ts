/**
 * The amount rules of the donate page and the currencies we take (arithmetic on minor units:
 * app/lib/currency.ts).
 * Shared with the browser: no server imports.
 */
export const MAX_DONATION_EUR_CENTS = 100_000_00;
/** 1 EUR = 655.957 XOF/XAF: the fixed legal parity of the CFA francs. */
export const CFA_PER_EUR = 655.957;

export const MOBILE_MONEY_CURRENCIES = ['XOF', 'XAF', 'GHS', 'KES', 'UGX', 'RWF', 'TZS', 'ZMW'] as const;
export type MobileMoneyCurrency = (typeof MOBILE_MONEY_CURRENCIES)[number];

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

/** Euro cents to CFA francs at the fixed parity, rounded to the franc. */
export function eurCentsToCfa(cents: number): number {
  return Math.round((cents * CFA_PER_EUR) / 100);
}

/** CFA francs back to euro cents (for the ledger's EUR value). */
export function cfaToEurCents(francs: number): number {
  return Math.round((francs * 100) / CFA_PER_EUR);
}

