import { describe, expect, it } from 'vitest';
import { cfaToEurCents, eurCentsToCfa, formatMoney, fromDecimal, parseEuroAmount, toDecimalString } from '~/domain/donations/money';
import { nestFormData } from '~/domain/donations/payment-settings';
import { canTransition } from '~/domain/donations/status';
import { coinGateStatus, flutterwaveStatus, payPalCaptureStatus, stripeSessionStatus } from '~/domain/donations/providers/statuses';
import { open, seal } from '~/lib/secret-box.server';

describe('donation amounts', () => {
  it('accepts euros with up to two decimals and returns cents', () => {
    expect(parseEuroAmount('20')).toEqual({ ok: true, cents: 2000 });
    expect(parseEuroAmount('20.5')).toEqual({ ok: true, cents: 2050 });
    expect(parseEuroAmount(' 20,05 ')).toEqual({ ok: true, cents: 2005 });
    expect(parseEuroAmount('0.01')).toEqual({ ok: true, cents: 1 });
    expect(parseEuroAmount('100000')).toEqual({ ok: true, cents: 10_000_000 });
  });
  it.each([
    ['', 'missing'],
    [undefined, 'missing'],
    ['-5', 'invalid'],
    ['0', 'too_small'],
    ['0.00', 'too_small'],
    ['100000.01', 'too_large'],
    ['20.123', 'invalid'],
    ['abc', 'invalid'],
    ['1e3', 'invalid'],
    ['9'.repeat(5000), 'invalid'],
    ['20 €', 'invalid'],
  ])('refuses %j (%s)', (input, error) => {
    expect(parseEuroAmount(input)).toEqual({ ok: false, error });
  });
  it('converts minor units to and from provider decimals per currency', () => {
    expect(toDecimalString(2000, 'EUR')).toBe('20.00');
    expect(toDecimalString(5, 'EUR')).toBe('0.05');
    expect(toDecimalString(13119, 'XOF')).toBe('13119');
    expect(fromDecimal('20.00', 'EUR')).toBe(2000);
    expect(fromDecimal(20.5, 'EUR')).toBe(2050);
    expect(fromDecimal('20.001', 'EUR')).toBeNull();
    expect(fromDecimal('13119', 'XOF')).toBe(13119);
    expect(fromDecimal('13119.5', 'XOF')).toBeNull();
    expect(fromDecimal('garbage', 'EUR')).toBeNull();
    expect(fromDecimal('20.00', 'USD')).toBeNull();
  });
  it('converts euros to CFA francs at 655.957', () => {
    expect(eurCentsToCfa(2000)).toBe(13119);
    expect(eurCentsToCfa(100)).toBe(656);
    expect(cfaToEurCents(13119)).toBe(2000);
  });
  it('formats money for the donor', () => {
    expect(formatMoney(2000, 'EUR', 'en')).toBe('€20.00');
    expect(formatMoney(2000, 'EUR', 'fr').replace(/\s/g, ' ')).toBe('20,00 €');
  });
});

describe('donation statuses', () => {
  it('allows only forward transitions', () => {
    expect(canTransition('pending', 'succeeded')).toBe(true);
    expect(canTransition('cancelled', 'succeeded')).toBe(true);
    expect(canTransition('succeeded', 'refunded')).toBe(true);
    expect(canTransition('succeeded', 'pending')).toBe(false);
    expect(canTransition('succeeded', 'failed')).toBe(false);
    expect(canTransition('succeeded', 'succeeded')).toBe(false);
    expect(canTransition('refunded', 'succeeded')).toBe(false);
    expect(canTransition('failed', 'succeeded')).toBe(false);
  });
  it('maps each provider status in one place', () => {
    expect(stripeSessionStatus({ status: 'complete', payment_status: 'paid' })).toBe('succeeded');
    expect(stripeSessionStatus({ status: 'complete', payment_status: 'unpaid' })).toBeNull();
    expect(stripeSessionStatus({ status: 'expired' })).toBe('cancelled');
    expect(payPalCaptureStatus('COMPLETED')).toBe('succeeded');
    expect(payPalCaptureStatus('PENDING')).toBeNull();
    expect(coinGateStatus('paid')).toBe('succeeded');
    expect(coinGateStatus('confirming')).toBeNull();
    expect(coinGateStatus('expired')).toBe('cancelled');
    expect(flutterwaveStatus('successful')).toBe('succeeded');
    expect(flutterwaveStatus('pending')).toBeNull();
  });
});

describe('secret box', () => {
  const secret = 'x'.repeat(40);
  it('round-trips and never stores the plaintext', () => {
    const sealed = seal(secret, 'p', 'sk_live_123');
    expect(sealed).not.toContain('sk_live_123');
    expect(open(secret, 'p', sealed)).toBe('sk_live_123');
    expect(seal(secret, 'p', 'sk_live_123')).not.toBe(sealed);
  });
  it('refuses another key, another purpose, or a tampered value', () => {
    const sealed = seal(secret, 'p', 'sk_live_123');
    expect(() => open('y'.repeat(40), 'p', sealed)).toThrow();
    expect(() => open(secret, 'q', sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => open(secret, 'p', parts.join('.'))).toThrow();
  });
});

describe('payment settings form', () => {
  it('nests dotted field names and keeps product order', () => {
    const f = new FormData();
    f.append('stripe.enabled', 'on');
    f.append('stripe.products.0.name', 'A');
    f.append('stripe.products.1.name', 'B');
    f.append('__proto__.x', 'bad');
    expect(nestFormData(f)).toEqual({ stripe: { enabled: 'on', products: [{ name: 'A' }, { name: 'B' }] } });
  });
});
