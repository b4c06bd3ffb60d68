import { describe, expect, it } from 'vitest';
import { formatMoney, fromDecimal, toDecimalString } from '~/lib/currency';
import { cfaToEurCents, eurCentsToCfa, parseEuroAmount } from '~/domain/donations/money';
import { STRIPE_METHOD_LABELS, STRIPE_METHOD_TYPES, nestFormData, paymentSettingsFormSchema } from '~/domain/donations/providers/settings';
import { canTransition } from '~/domain/donations/ledger.server';
import { coinGateStatus } from '~/domain/donations/providers/coingate.server';
import { flutterwaveStatus } from '~/domain/donations/providers/flutterwave.server';
import { payPalCaptureStatus } from '~/domain/donations/providers/paypal.server';
import { stripeSessionStatus } from '~/domain/donations/providers/stripe.server';
import { open, seal } from '~/lib/secret-box.server';

describe('donation amounts', () => {
  it('accepts euros with up to two decimals and returns cents', () => {
    expect(parseEuroAmount('20')).toEqual({ ok: true, cents: 2000 });
    expect(parseEuroAmount('20.5')).toEqual({ ok: true, cents: 2050 });
    expect(parseEuroAmount(' 20,05 ')).toEqual({ ok: true, cents: 2005 });
    expect(parseEuroAmount('0.01')).toEqual({ ok: true, cents: 1 });
    expect(parseEuroAmount('100000')).toEqual({ ok: true, cents: 10_000_000 });
  });
  it('reads thousands written with a space, as French donors write them', () => {
    expect(parseEuroAmount('1 000')).toEqual({ ok: true, cents: 100_000 });
    expect(parseEuroAmount(' 2\u00a0500,50 ')).toEqual({ ok: true, cents: 250_050 });
    expect(parseEuroAmount('100\u202f000')).toEqual({ ok: true, cents: 10_000_000 });
    expect(parseEuroAmount('100 000,01')).toEqual({ ok: false, error: 'too_large' });
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
    ['1 00', 'invalid'],
    ['1 000 000', 'invalid'],
    ['1000 000', 'invalid'],
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

  it('skips files and prototype names, closes gaps between products, and gives Stripe an empty list when none is sent', () => {
    const f = new FormData();
    f.append('stripe.products.0.name', 'A');
    f.append('stripe.products.2.name', 'C');
    f.append('paypal.logo', new Blob(['x']), 'logo.png');
    f.append('paypal.prototype', 'bad');
    f.append('paypal.mode', 'live');
    // Field names that would reach Object.prototype or Object itself change nothing anywhere.
    f.append('__proto__.polluted', 'bad');
    f.append('constructor.prototype.polluted', 'bad');
    f.append('paypal.constructor.polluted', 'bad');
    expect(nestFormData(f)).toEqual({ stripe: { products: [{ name: 'A' }, { name: 'C' }] }, paypal: { mode: 'live' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
    const noProducts = new FormData();
    noProducts.append('stripe.enabled', 'on');
    expect(nestFormData(noProducts)).toEqual({ stripe: { enabled: 'on', products: [] } });
    const objects = new FormData();
    objects.append('mobileMoney.x1.y', 'v');
    expect(nestFormData(objects)).toEqual({ mobileMoney: { x1: { y: 'v' } } });
  });

  describe('its checks', () => {
    const valid = {
      stripe: { enabled: 'on', publishableKey: ' pk_test ', products: [{ id: 'p1', name: 'Kit', amount: '25', priceId: 'price_1', active: 'true' }] },
      paypal: { enabled: '', clientId: '', webhookId: '', mode: 'sandbox' },
      coingate: { enabled: true, mode: 'live' },
      mobileMoney: { enabled: 'off', integrationType: 'link', provider: 'flutterwave', publicKey: '', currency: 'XOF', paymentUrl: '' },
    };
    type Form = typeof valid & { giving?: Record<string, unknown> };
    const errors = (change: (f: Form) => void) => {
      const form: Form = structuredClone(valid);
      change(form);
      const parsed = paymentSettingsFormSchema.safeParse(form);
      return Object.fromEntries((parsed.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    };

    it('reads the checkboxes as the browser sends them, and trims text', () => {
      const parsed = paymentSettingsFormSchema.parse(valid);
      expect([parsed.stripe.enabled, parsed.stripe.products[0].active, parsed.paypal.enabled, parsed.coingate.enabled, parsed.mobileMoney.enabled]).toEqual([true, true, false, true, false]);
      expect(parsed.stripe.publishableKey).toBe('pk_test');
      expect(parsed.giving).toBeUndefined();
    });

    it('limits text lengths and the number of products, with the limit in the message', () => {
      expect(errors((f) => (f.stripe.publishableKey = 'k'.repeat(301)))).toEqual({ 'stripe.publishableKey': '300 caractères au plus.' });
      expect(errors((f) => (f.stripe.publishableKey = ` ${'k'.repeat(300)} `))).toEqual({});
      expect(errors((f) => (f.stripe.products[0].name = 'n'.repeat(121)))).toEqual({ 'stripe.products.0.name': '120 caractères au plus.' });
      expect(errors((f) => (f.stripe.products = Array.from({ length: 51 }, (_, i) => ({ ...valid.stripe.products[0], id: `p${i}` }))))).toEqual({ 'stripe.products': '50 produits au plus.' });
      expect(errors((f) => (f.stripe.products = Array.from({ length: 50 }, (_, i) => ({ ...valid.stripe.products[0], id: `p${i}` }))))).toEqual({});
    });

    it('takes a product amount in euros: positive, two decimals, 100,000 € at most; or none', () => {
      const amountError = (amount: string) => errors((f) => (f.stripe.products[0].amount = amount))['stripe.products.0.amount'];
      for (const ok of ['', ' 25 ', '0,01', '12.5', '99.99', '100000', '100000,00']) expect(amountError(ok), ok).toBeUndefined();
      for (const bad of ['0', '0,00', '-5', '100000.01', '1000000', '12.345', '12,', 'douze', '1e3', '1 000'])
        expect(amountError(bad), bad).toBe('Montant invalide : un nombre positif en euros, 2 décimales au plus, 100 000 € au plus.');
    });

    it('takes a mobile money payment link only as a web address', () => {
      const urlError = (url: string) => errors((f) => (f.mobileMoney.paymentUrl = url))['mobileMoney.paymentUrl'];
      for (const ok of ['', 'https://flutterwave.com/pay/abc', 'HTTP://pay.example/x', ' https://pay.example/x ']) expect(urlError(ok), ok).toBeUndefined();
      for (const bad of ['flutterwave.com/pay', 'ftp://pay.example', 'https://pay.example/a b', 'xhttps://pay.example', 'https://'])
        expect(urlError(bad), bad).toBe('Adresse invalide : elle doit commencer par https://.');
      expect(urlError(`https://pay.example/${'a'.repeat(2000)}`)).toBeDefined();
    });

    it('takes a fee percentage from 0.01 to 10 with two decimals, and known Stripe payment methods', () => {
      const giving = (g: Record<string, unknown>) => errors((f) => (f.giving = g));
      const feeError = (feePercent: string) => giving({ feePercent })['giving.feePercent'];
      for (const ok of ['', '0,01', ' 2.5 ', '10', '10,00']) expect(feeError(ok), ok).toBeUndefined();
      for (const bad of ['0', '10.01', '11', '100', '2.555', '-1', 'trois']) expect(feeError(bad), bad).toBe('Pourcentage invalide : un nombre entre 0,01 et 10, 2 décimales au plus.');
      expect(paymentSettingsFormSchema.parse({ ...valid, giving: {} }).giving).toEqual({ feePercent: '', stripeMethodTypes: [] });
      expect(paymentSettingsFormSchema.parse({ ...valid, giving: { stripeMethodTypes: ['card', '', 'ideal'] } }).giving?.stripeMethodTypes).toEqual(['card', 'ideal']);
      expect(paymentSettingsFormSchema.parse({ ...valid, giving: { stripeMethodTypes: 'card' } }).giving?.stripeMethodTypes).toEqual([]);
      expect(Object.keys(giving({ stripeMethodTypes: ['card', 'cash'] }))).toEqual(['giving.stripeMethodTypes.1']);
      // Each method the admin may tick has its label on the screen.
      for (const type of STRIPE_METHOD_TYPES) expect(STRIPE_METHOD_LABELS[type], type).toMatch(/\w{4}/);
    });

    it('takes PayPal and CoinGate in sandbox or live mode only', () => {
      for (const mode of ['sandbox', 'live']) expect(errors((f) => ((f.paypal.mode = mode), (f.coingate.mode = mode)))).toEqual({});
      expect(Object.keys(errors((f) => ((f.paypal.mode = 'test'), (f.coingate.mode = ''))))).toEqual(['paypal.mode', 'coingate.mode']);
    });
  });
});
