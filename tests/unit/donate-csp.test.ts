import { describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_SETTINGS } from '~/domain/donations/providers/settings';
import type { PaymentSettings } from '~/domain/donations/providers/settings.server';
import { parseEnv } from '~/lib/env.server';
import { donatePageCsp, donateScripts, hostedCheckoutCsp } from '~/routes/site/donate.server';

/**
 * The pages' Content-Security-Policy from the origins each provider declares (ADR 019): the donate
 * page lets a tab's script, frames and API calls in only when its checkout opens in the page, and
 * its plain forms go only to the hosted pages of the methods on offer; the joining page's plain
 * forms go to every offered method's hosted page.
 */
const directive = (csp: string, name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
const settings = (mobile: Partial<PaymentSettings['mobileMoney']> = {}): PaymentSettings =>
  ({ ...DEFAULT_PUBLIC_SETTINGS, mobileMoney: { ...DEFAULT_PUBLIC_SETTINGS.mobileMoney, ...mobile }, secrets: {} }) as unknown as PaymentSettings;
const none = { card: false, paypal: false, crypto: false, mobileMoney: false };

describe('the donate page’s CSP', () => {
  const env = parseEnv({ STRIPE_API_BASE: 'http://127.0.0.1:4010', PAYPAL_SDK_URL: 'http://127.0.0.1:4020/sdk/js' });

  it('sends card and crypto forms only to Stripe Checkout and CoinGate’s invoice page, with no provider script', () => {
    const csp = donatePageCsp({ env, settings: settings() }, { ...none, card: true, crypto: true });
    expect(directive(csp, 'form-action')).toBe("form-action 'self' https://checkout.stripe.com http://127.0.0.1:4010 https://pay.coingate.com https://pay-sandbox.coingate.com");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
  });

  it('lets PayPal’s buttons and the mobile money checkout in, by their scripts’ origins, when those tabs are on offer', () => {
    const csp = donatePageCsp({ env, settings: settings() }, { ...none, paypal: true, mobileMoney: true });
    expect(directive(csp, 'script-src')).toBe("script-src 'self' http://127.0.0.1:4020 https://checkout.flutterwave.com");
    expect(directive(csp, 'frame-src')).toContain('https://www.paypal.com');
    expect(directive(csp, 'connect-src')).toContain('https://api.flutterwave.com');
    expect(directive(csp, 'form-action')).toBe("form-action 'self'");
    expect(donateScripts({ env, settings: settings() })).toEqual({ paypal: 'http://127.0.0.1:4020/sdk/js', mobileMoney: 'https://checkout.flutterwave.com/v3.js' });
  });

  it('sends mobile money’s form to the payment link when one is set instead of the checkout, and loads no script for it', () => {
    const link = settings({ integrationType: 'link', paymentUrl: 'https://pay.example.net/thv?x=1' });
    const csp = donatePageCsp({ env, settings: link }, { ...none, mobileMoney: true });
    expect(directive(csp, 'form-action')).toBe("form-action 'self' https://pay.example.net");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(donateScripts({ env, settings: link }).mobileMoney).toBeUndefined();
  });
});

describe('the joining page’s CSP', () => {
  it('sends its plain forms to the hosted page of every method on offer, and of none other', () => {
    const env = parseEnv({ FLUTTERWAVE_API_BASE: 'http://127.0.0.1:4030' });
    expect(directive(hostedCheckoutCsp({ env, settings: settings() }, { ...none, mobileMoney: true }), 'form-action')).toBe(
      "form-action 'self' https://checkout.flutterwave.com https://checkout-v3-ui-prod.f4b-flutterwave.com http://127.0.0.1:4030",
    );
    expect(directive(hostedCheckoutCsp({ env, settings: settings() }, none), 'form-action')).toBe("form-action 'self'");
  });
});
