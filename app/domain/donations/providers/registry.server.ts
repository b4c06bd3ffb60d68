import type { ProviderName } from '../status';
import { coinGateProvider } from './coingate.server';
import { flutterwaveProvider } from './flutterwave.server';
import { linkProvider } from './link.server';
import { payPalProvider } from './paypal.server';
import type { PaymentProvider, SubscriptionCapability } from './provider';
import { stripeProvider } from './stripe.server';
import { stripeSubscriptions } from './stripe-subscriptions.server';

/**
 * Every payment provider by name (ADR 019). Adding one: a module implementing PaymentProvider,
 * its name in status.ts's PROVIDERS, and a line here; nothing else in the payment code changes.
 */
const PROVIDERS: Record<ProviderName, PaymentProvider> = {
  stripe: { ...stripeProvider, subscriptions: stripeSubscriptions },
  paypal: payPalProvider,
  coingate: coinGateProvider,
  flutterwave: flutterwaveProvider,
  mobile_link: linkProvider,
};

export function providerOf(name: ProviderName): PaymentProvider {
  return PROVIDERS[name];
}

/** The subscriptions capability of the provider that charges a monthly gift (its first donation's `provider`). */
export function subscriptionsOf(first: { provider: string }): SubscriptionCapability | undefined {
  return providerOfRow(first.provider)?.subscriptions;
}

/** Every provider, in the registry's order. */
export const allProviders = (): PaymentProvider[] => Object.values(PROVIDERS);

/** The provider of a stored payment (its `provider` column), or undefined for a name we no longer know. */
export function providerOfRow(name: string): PaymentProvider | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as ProviderName] : undefined;
}
