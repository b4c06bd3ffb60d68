import Stripe from 'stripe';
import { toDecimalString } from '../money';
import { stripeSessionStatus } from './statuses';
import { ProviderError, type VerifiedPayment } from './types';

/** A Stripe client; `apiBase` (STRIPE_API_BASE) points it at a sandbox or a local fake. */
export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const opts: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 15_000, telemetry: false };
  if (apiBase) {
    const u = new URL(apiBase);
    opts.host = u.hostname;
    opts.protocol = u.protocol === 'http:' ? 'http' : 'https';
    opts.port = u.port || (u.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(secretKey, opts);
}

export interface CheckoutInput {
  donationId: string;
  /** What the donor pays: the gift plus `feeCents`. */
  amountCents: number;
  /** Added by the donor to cover processing fees: a line of its own, so Checkout shows it before paying. */
  feeCents?: number;
  feeName?: string;
  /** A preset's price id (one-off gifts); otherwise price_data in EUR cents. */
  priceId?: string;
  monthly: boolean;
  productName: string;
  successUrl: string;
  cancelUrl: string;
  locale: 'fr' | 'en' | 'es';
  /** Designated campaign, carried in the session's (and subscription's) metadata. */
  campaignId?: string | null;
  /** Payment method types from payment settings (card, sepa_debit…); every type the account enables when empty. */
  paymentMethodTypes?: string[];
}

export async function createCheckoutSession(stripe: Stripe, i: CheckoutInput): Promise<{ id: string; url: string }> {
  const metadata: Record<string, string> = { donation_id: i.donationId, ...(i.campaignId ? { campaign_id: i.campaignId } : {}) };
  const common = {
    client_reference_id: i.donationId,
    metadata,
    // A filter on what the account enables (wallets such as Apple Pay and Google Pay come with 'card').
    ...(i.paymentMethodTypes?.length ? { allowed_payment_method_types: i.paymentMethodTypes as Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[] } : {}),
    success_url: i.successUrl,
    cancel_url: i.cancelUrl,
    locale: i.locale,
  } satisfies Partial<Stripe.Checkout.SessionCreateParams>;
  const fee = i.feeCents ?? 0;
  const gift = i.amountCents - fee;
  const recurring = i.monthly ? { recurring: { interval: 'month' as const } } : {};
  const feeLine = fee > 0 ? [{ quantity: 1, price_data: { currency: 'eur', unit_amount: fee, ...recurring, product_data: { name: i.feeName ?? 'Frais' } } }] : [];
  const params: Stripe.Checkout.SessionCreateParams = i.monthly
    ? {
        ...common,
        mode: 'subscription',
        line_items: [{ quantity: 1, price_data: { currency: 'eur', unit_amount: gift, recurring: { interval: 'month' }, product_data: { name: i.productName } } }, ...feeLine],
        subscription_data: { metadata },
      }
    : {
        ...common,
        mode: 'payment',
        submit_type: 'donate',
        line_items: [
          i.priceId
            ? { price: i.priceId, quantity: 1 }
            : { quantity: 1, price_data: { currency: 'eur', unit_amount: gift, product_data: { name: i.productName } } },
          ...feeLine,
        ],
      };
  try {
    const session = await stripe.checkout.sessions.create(params, { idempotencyKey: `donation-${i.donationId}` });
    if (!session.id || !session.url) throw new ProviderError('stripe', 'session sans adresse de paiement');
    return { id: session.id, url: session.url };
  } catch (e) {
    // Stryker disable next-line ConditionalExpression: wrapped again, our own ProviderError keeps its provider and message
    if (e instanceof ProviderError) throw e;
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

export function sessionPayment(session: Stripe.Checkout.Session): VerifiedPayment {
  const secondary = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id ?? (typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id);
  return {
    ref: session.id,
    status: stripeSessionStatus(session),
    amountMinor: session.amount_total ?? null,
    currency: session.currency?.toUpperCase() ?? null,
    donorName: session.customer_details?.name ?? null,
    donorEmail: session.customer_details?.email ?? session.customer_email ?? null,
    secondaryRef: secondary ?? null,
    designation: session.metadata?.campaign_id ?? null,
  };
}

export async function retrieveSession(stripe: Stripe, id: string): Promise<VerifiedPayment> {
  try {
    return sessionPayment(await stripe.checkout.sessions.retrieve(id));
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

/** A charge as a webhook sends it: `invoice` only from an endpoint on an API version before 2025-03-31.basil. */
export type ChargeLike = Pick<Stripe.Charge, 'payment_intent'> & { invoice?: string | { id: string } | null };

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : x?.id);

/**
 * The invoice a charge paid (a monthly instalment), asked of Stripe; undefined when it paid none (a
 * one-off gift). Since API version 2025-03-31.basil a charge no longer names its invoice: the
 * invoice payments of its PaymentIntent do. An endpoint on an older version still sends `invoice`.
 */
export async function invoiceOfCharge(stripe: Stripe, charge: ChargeLike): Promise<Stripe.Invoice | undefined> {
  const named = idOf(charge.invoice);
  const paymentIntent = idOf(charge.payment_intent);
  try {
    if (named) return await stripe.invoices.retrieve(named);
    if (!paymentIntent) return undefined;
    const payments = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntent }, expand: ['data.invoice'], limit: 1 });
    const found = payments.data[0]?.invoice;
    return typeof found === 'object' && !found.deleted ? found : undefined;
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

/** Verifies `Stripe-Signature` over the raw body; throws when it does not match. */
export function verifyWebhook(rawBody: string, signature: string | null, webhookSecret: string): Stripe.Event {
  if (!signature) throw new Error('missing Stripe-Signature');
  return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
}

export const describeAmount = (cents: number) => `${toDecimalString(cents, 'EUR')} EUR`;
