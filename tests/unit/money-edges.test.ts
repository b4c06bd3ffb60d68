import { describe, expect, it } from 'vitest';
import { exponent, formatMoney, fromDecimal, toDecimalString } from '~/lib/currency';
import { AMOUNT_PATTERN, parseEuroAmount } from '~/domain/donations/money';

/** The edges of the money rules that mutation testing found untested (ADR 011). */
describe('money edges', () => {
  it('tells blank input (missing) from bad input (invalid), and too many digits from too large', () => {
    expect(parseEuroAmount('   ')).toEqual({ ok: false, error: 'missing' });
    expect(parseEuroAmount('\t')).toEqual({ ok: false, error: 'missing' });
    // 12 characters is still a number, only too large; 13 is refused as input.
    expect(parseEuroAmount('123456789012')).toEqual({ ok: false, error: 'too_large' });
    expect(parseEuroAmount('1234567890123')).toEqual({ ok: false, error: 'invalid' });
    expect(parseEuroAmount('99999999.99')).toEqual({ ok: false, error: 'too_large' });
    expect(parseEuroAmount('100000.01')).toEqual({ ok: false, error: 'too_large' });
  });

  it('knows the exponent of each currency it charges, and refuses any other', () => {
    expect(exponent('eur')).toBe(2);
    expect(exponent('XOF')).toBe(0);
    expect(() => exponent('USD')).toThrow('unsupported currency USD');
    expect(() => toDecimalString(100, 'JPY')).toThrow('unsupported currency JPY');
  });

  it('writes negative and zero amounts as providers expect', () => {
    expect(toDecimalString(-150, 'EUR')).toBe('-1.50');
    expect(toDecimalString(0, 'EUR')).toBe('0.00');
    expect(toDecimalString(-7, 'EUR')).toBe('-0.07');
    expect(toDecimalString(100, 'EUR')).toBe('1.00');
  });

  it('reads provider decimals strictly: trimmed strings, whole numbers, trailing zeros', () => {
    expect(fromDecimal(' 12.50 ', 'EUR')).toBe(1250);
    expect(fromDecimal('1.5000', 'EUR')).toBe(150);
    expect(fromDecimal('7', 'EUR')).toBe(700);
    expect(fromDecimal(13119, 'XOF')).toBe(13119);
    expect(fromDecimal('13119.000', 'XOF')).toBe(13119);
    expect(fromDecimal('x12.5', 'EUR')).toBeNull();
    expect(fromDecimal('12.5x', 'EUR')).toBeNull();
    expect(fromDecimal('-12.5', 'EUR')).toBeNull();
    expect(fromDecimal(null, 'EUR')).toBeNull();
    expect(fromDecimal(undefined, 'EUR')).toBeNull();
    expect(fromDecimal({ value: '1' }, 'EUR')).toBeNull();
    expect(fromDecimal('', 'EUR')).toBeNull();
    expect(fromDecimal('99999999999999999', 'EUR')).toBeNull();
  });

  it('formats in French unless told otherwise', () => {
    expect(formatMoney(2000, 'EUR').replace(/\s/g, ' ')).toBe('20,00 €');
    expect(formatMoney(13119, 'XOF').replace(/\s/g, ' ')).toBe('13 119 F CFA');
  });
});

describe('the amount fields’ HTML pattern', () => {
  // As a browser compiles a `pattern` attribute: anchored, with the v flag.
  const browser = new RegExp(`^(?:${AMOUNT_PATTERN})$`, 'v');
  it('lets through exactly the forms parseEuroAmount reads, and stops the rest before the server', () => {
    const read = ['20', '20.5', '20,50', '1 000', '1\u00a0000', '1\u202f000,50', '12 345.67', '100000', '0', '0,01', '007'];
    for (const v of read) {
      expect(browser.test(v), v).toBe(true);
      const parsed = parseEuroAmount(v);
      // Read as a number: accepted, or refused for its size (zero, over 100 000 €), never as malformed.
      expect(parsed.ok || parsed.error !== 'invalid', v).toBe(true);
    }
    const refused = ['', '-5', '20.505', '20,', '1 00', '1  000', '1 000 000', '12 34', 'abc', '20 €', '1e3', '20.5.1'];
    for (const v of refused) {
      expect(browser.test(v), v).toBe(false);
      expect(parseEuroAmount(v).ok, v).toBe(false);
    }
  });
});
