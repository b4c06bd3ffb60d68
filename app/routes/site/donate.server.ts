import { contentSecurityPolicy } from '~/lib/csp.server';
import type { Env } from '~/lib/env.server';
import { TAB_METHODS as METHODS, type TabMethod as Method } from '~/domain/giving/form';

/** The donate page's tabs in their order (the giving area's). */
export { METHODS, type Method };

export const PAYPAL_SDK_DEFAULT = 'https://www.paypal.com/sdk/js';
export const FLUTTERWAVE_SCRIPT_DEFAULT = 'https://checkout.flutterwave.com/v3.js';

/** The browser scripts of PayPal and Flutterwave (overridable for tests). */
export function donateScriptOrigins(env: Env) {
  return { paypal: env.PAYPAL_SDK_URL ?? PAYPAL_SDK_DEFAULT, flutterwave: env.FLUTTERWAVE_SCRIPT_URL ?? FLUTTERWAVE_SCRIPT_DEFAULT };
}


const originOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

const uniq = (xs: (string | undefined)[]) => [...new Set(xs.filter((x): x is string => Boolean(x)))];

/**
 * Where each method's hosted page is (a form's redirect is held to `form-action`), the configured
 * API base included for the local fakes. The donate page leads to Stripe's and CoinGate's; a plain
 * joining form to all four.
 */
function hostedCheckouts(env: Env): Record<Method, (string | undefined)[]> {
  return {
    card: ['https://checkout.stripe.com', originOf(env.STRIPE_API_BASE)],
    paypal: ['https://www.paypal.com', 'https://www.sandbox.paypal.com', originOf(env.PAYPAL_API_BASE)],
    mobileMoney: ['https://checkout.flutterwave.com', 'https://checkout-v3-ui-prod.f4b-flutterwave.com', originOf(env.FLUTTERWAVE_API_BASE)],
    crypto: ['https://pay.coingate.com', 'https://pay-sandbox.coingate.com', originOf(env.COINGATE_API_BASE)],
  };
}

/**
 * The policy of a page whose plain forms lead to the providers' own pages (/devenir-membre): no
 * script of theirs, only `form-action` to the hosted checkouts of the methods on offer.
 */
export function hostedCheckoutCsp(env: Env, on: Record<Method, boolean>): string {
  const hosted = hostedCheckouts(env);
  return contentSecurityPolicy(null, { formAction: uniq(METHODS.filter((m) => on[m]).flatMap((m) => hosted[m])), scriptSrc: [], frameSrc: [], connectSrc: [] });
}

/**
 * The donate page's CSP: the default policy plus exactly the origins of the methods on offer —
 * where its forms may lead (hosted checkouts, payment link) and, for PayPal and Flutterwave, the
 * script, frames and API calls of their browser SDKs.
 */
export function donatePageCsp(env: Env, on: Record<Method, boolean>, paymentLinkUrl: string | null): string {
  const scripts = donateScriptOrigins(env);
  const hosted = hostedCheckouts(env);
  const formAction: (string | undefined)[] = [];
  const scriptSrc: (string | undefined)[] = [];
  const frameSrc: (string | undefined)[] = [];
  const connectSrc: (string | undefined)[] = [];
  if (on.card) formAction.push(...hosted.card);
  if (on.crypto) formAction.push(...hosted.crypto);
  if (on.mobileMoney && paymentLinkUrl) formAction.push(originOf(paymentLinkUrl));
  if (on.paypal) {
    const o = originOf(scripts.paypal);
    scriptSrc.push(o);
    frameSrc.push(o, 'https://www.paypal.com', 'https://www.sandbox.paypal.com');
    connectSrc.push(o, 'https://www.paypal.com', 'https://www.sandbox.paypal.com');
  }
  if (on.mobileMoney && !paymentLinkUrl) {
    const o = originOf(scripts.flutterwave);
    scriptSrc.push(o);
    frameSrc.push(o, 'https://checkout.flutterwave.com', 'https://checkout-v3-ui-prod.f4b-flutterwave.com');
    connectSrc.push(o, 'https://api.flutterwave.com');
  }
  return contentSecurityPolicy(null, { formAction: uniq(formAction), scriptSrc: uniq(scriptSrc), frameSrc: uniq(frameSrc), connectSrc: uniq(connectSrc) });
}
