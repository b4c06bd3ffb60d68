import type { ProviderName } from '../status';
import { coinGateProvider } from './coingate.server';
import { flutterwaveBalance } from './flutterwave-balance.server';
import { flutterwaveProvider } from './flutterwave.server';
import { linkProvider } from './link.server';
import { payPalBalance } from './paypal-balance.server';
import { payPalProvider } from './paypal.server';
import type { PaymentProvider, SubscriptionCapability } from './provider';
import { stripeBalance } from './stripe-balance.server';
import { stripeProvider } from './stripe.server';
import { stripeSubscriptions } from './stripe-subscriptions.server';

/**
 * Every payment provider by name (ADR 019). Adding one: a module implementing PaymentProvider,
 * its name in status.ts's PROVIDERS, and a line here; nothing else in the payment code changes.
 */
const PROVIDERS: Record<ProviderName, PaymentProvider> = {
  // Fees and payouts from the provider's own ledger where its answers give them (ADR 033); CoinGate's give none.
  stripe: { ...stripeProvider, subscriptions: stripeSubscriptions, balance: stripeBalance },
  paypal: { ...payPalProvider, balance: payPalBalance },
  coingate: coinGateProvider,
  flutterwave: { ...flutterwaveProvider, balance: flutterwaveBalance },
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
