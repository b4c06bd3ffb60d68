import { numberFormat } from '~/lib/intl';

/**
 * Amounts as integers in a currency's minor unit (ISO 4217), to and from the decimal strings
 * providers and people read. Arithmetic, not a rule of ours: the donate page's limits and the CFA
 * franc's parity stay in app/domain/donations/money.ts. Shared with the browser.
 */

/** Digits after the decimal point per ISO 4217 for the currencies we charge. */
const EXPONENT: Record<string, number> = { EUR: 2, XOF: 0, XAF: 0, GHS: 2, KES: 2, UGX: 0, RWF: 0, TZS: 2, ZMW: 2 };

export function exponent(currency: string): number {
  const e = EXPONENT[currency.toUpperCase()];
  if (e === undefined) throw new Error(`unsupported currency ${currency}`);
  return e;
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

/** "20,00 €" in the donor's language. */
export function formatMoney(minor: number, currency: string, lang = 'fr'): string {
  const e = exponent(currency);
  return numberFormat(lang, { style: 'currency', currency, minimumFractionDigits: e, maximumFractionDigits: e }).format(minor / 10 ** e);
}
