import Stripe from 'stripe';
import { messagesFor } from '~/lib/i18n.server';
import { log } from '~/lib/log.server';
import { translate } from '~/lib/i18n';
import type { DonationDeps } from '../context.server';
import { instrumentOf, type DonationStatus } from '../status';
import { findByRef, findBySecondaryRef, type Donation } from '../ledger.server';
import { toDecimalString } from '~/lib/currency';
import { returnPaths, type PaymentProvider, type WebhookNotice } from './provider';
import { origins, originOf, ProviderError, returnOrigin, type VerifiedPayment } from './types';
import { STRIPE_DISPUTE_EVENTS, stripeDispute } from './stripe-disputes';
import { paymentOfSession } from './stripe-debits.server';
import { asksPayment, firstInvoiceMove, firstInvoiceStatus, stripeSessionStatus } from './stripe-states';

export { stripeSessionStatus } from './stripe-states';

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

/**
 * A session's verified word, `event` the news it came with: a session complete yet unpaid, or news
 * of its debit, is read with its payment (asked of Stripe: stripe-debits.server.ts), which says
 * whether a debit is on its way and what the payer paid with (ADR 029).
 */
export async function verifiedSession(stripe: Stripe, session: Stripe.Checkout.Session, event?: string): Promise<VerifiedPayment> {
  const p = sessionPayment(session);
  if (!asksPayment(session, event)) return p;
  const paid = await paymentOfSession(stripe, session);
  return { ...p, status: stripeSessionStatus(session, { event, paymentIntent: paid?.status }), instrument: paid?.instrument };
}

export async function retrieveSession(stripe: Stripe, id: string): Promise<VerifiedPayment> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(id);
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
  return verifiedSession(stripe, session);
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

// ——— the provider (ADR 019) ———

/** The one Stripe client of the payments and of the monthly gifts, from the payment settings. */
export function stripeOf(deps: Pick<DonationDeps, 'settings' | 'env'>): Stripe {
  const key = deps.settings.secrets['stripe.secretKey'];
  if (!key) throw new ProviderError('stripe', 'configuration incomplète');
  return stripeClient(key, deps.env.STRIPE_API_BASE);
}

/** The subscription an invoice belongs to (API versions before and after 2025-03-31.basil). */
export function subscriptionOfInvoice(invoice: Pick<Stripe.Invoice, 'parent'> & { subscription?: string | { id: string } | null }): string | undefined {
  return idOf(invoice.parent?.subscription_details?.subscription ?? invoice.subscription);
}

/**
 * The gift a charge paid (one refunded, or disputed). A one-off gift keeps its PaymentIntent; a
 * monthly instalment is found through the invoice the charge paid (asked of Stripe): a renewal is
 * recorded under its invoice, the first instalment under the checkout that started the subscription.
 */
async function giftOfCharge(deps: DonationDeps, charge: ChargeLike): Promise<Donation | undefined> {
  const pi = idOf(charge.payment_intent);
  const oneOff = pi ? await findBySecondaryRef(deps.db, 'stripe', pi) : undefined;
  if (oneOff) return oneOff;
  const invoice = await invoiceOfCharge(stripeOf(deps), charge);
  if (!invoice) return undefined;
  const subId = subscriptionOfInvoice(invoice);
  if (!subId) return undefined;
  const renewal = await findByRef(deps.db, 'stripe', invoice.id!);
  if (renewal) return renewal;
  // The first instalment's row is the checkout that started the subscription (renewals, recorded later, carry its id too).
  return invoice.billing_reason === 'subscription_create' ? findBySecondaryRef(deps.db, 'stripe', subId) : undefined;
}

type InvoiceLike = Stripe.Invoice & { subscription?: string | null };

/**
 * A renewal's invoice, paid: recorded as a gift like the first one (its donor, receipt details,
 * fees and means). `again`: the first invoice paid after the first gift failed (ADR 029).
 */
async function renewal(deps: DonationDeps, invoice: InvoiceLike, again?: Donation): Promise<WebhookNotice | null> {
  const subId = subscriptionOfInvoice(invoice);
  // The first invoice is the checkout itself, counted by checkout.session.completed (or by firstInstalment).
  if (!subId || (invoice.billing_reason === 'subscription_create' && !again) || !invoice.id) return null;
  const first = again ?? (await findBySecondaryRef(deps.db, 'stripe', subId));
  if (!first || invoice.currency.toUpperCase() !== 'EUR') return null;
  const paidAt = invoice.status_transitions?.paid_at ?? invoice.created;
  return {
    kind: 'renewed',
    first,
    paidAt: paidAt ? new Date(paidAt * 1000) : undefined,
    attempt: {
      provider: 'stripe',
      purpose: first.purpose,
      providerRef: invoice.id,
      secondaryRef: subId,
      amountMinor: invoice.amount_paid,
      currency: 'EUR',
      eurCents: invoice.amount_paid,
      frequency: 'monthly',
      language: first.language,
      donorName: first.donor_name,
      donorEmail: invoice.customer_email ?? first.donor_email,
      taxDetails: first.tax_details,
      // Each renewal covers the fees the first gift chose; its campaign is decided by the renewal's designation rule.
      gift: { campaignId: first.campaign_id, feeEurCents: invoice.amount_paid === first.amount_minor ? first.fee_eur_cents : 0 },
      instrument: instrumentOf(first),
    },
  };
}

/**
 * News of a subscription's first invoice (ADR 029): a monthly SEPA gift's checkout completed unpaid,
 * so its first instalment is settled here, once — paid, or its debit failed. Undefined when the
 * news is not the first instalment's (a renewal's, an unknown subscription's): the caller goes on.
 */
async function firstInstalment(deps: DonationDeps, type: string, invoice: InvoiceLike): Promise<WebhookNotice[] | undefined> {
  const news = firstInvoiceStatus(type, invoice);
  const subId = subscriptionOfInvoice(invoice);
  const first = news && subId ? await findBySecondaryRef(deps.db, 'stripe', subId) : undefined;
  if (!news || !first) return undefined;
  const move = firstInvoiceMove(news, first.status as DonationStatus);
  if (move === 'gift') return [await renewal(deps, invoice, first)].filter((n): n is WebhookNotice => n !== null);
  if (move === 'none') return news === 'failed' && first.status !== 'failed' ? undefined : [];
  const amountMinor = news === 'succeeded' ? invoice.amount_paid : first.amount_minor;
  return [{ kind: 'verified', donation: first, payment: { ref: first.provider_ref, status: news, amountMinor, currency: invoice.currency.toUpperCase(), secondaryRef: subId } }];
}

async function disputeNotices(deps: DonationDeps, eventId: string, d: Stripe.Dispute): Promise<WebhookNotice[]> {
  const dispute = stripeDispute(d);
  const donation = dispute ? await giftOfCharge(deps, d) : undefined;
  if (dispute && donation) return [{ kind: 'disputed', donation, dispute }];
  log.info('dispute event changes nothing', { eventId, dispute: d.id, status: d.status, why: dispute ? 'no gift of ours' : 'unknown status' });
  return [];
}

const SESSION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired']);
const SUBSCRIPTION_EVENTS = new Set(['invoice.payment_failed', 'customer.subscription.updated', 'customer.subscription.deleted']);

/** What one verified Stripe event says. */
async function noticesOf(deps: DonationDeps, event: Stripe.Event): Promise<WebhookNotice[]> {
  if (SESSION_EVENTS.has(event.type)) {
    // A session of ours only: Stripe is asked about its payment after that (ADR 029).
    const session = event.data.object as Stripe.Checkout.Session;
    const donation = await findByRef(deps.db, 'stripe', session.id);
    return donation ? [{ kind: 'verified', payment: await verifiedSession(stripeOf(deps), session, event.type), donation }] : [];
  }
  // A monthly SEPA gift's first instalment, paid or failed (ADR 029); other invoices go on below.
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const first = await firstInstalment(deps, event.type, event.data.object as InvoiceLike);
    if (first) return first;
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    const donation = charge.refunded ? await giftOfCharge(deps, charge) : undefined;
    return donation ? [{ kind: 'refunded', donation }] : [];
  }
  // A card chargeback or a SEPA return (ADR 027), found by the PaymentIntent it names.
  if (STRIPE_DISPUTE_EVENTS.has(event.type)) return disputeNotices(deps, event.id, event.data.object as Stripe.Dispute);
  if (event.type === 'invoice.paid') {
    const n = await renewal(deps, event.data.object);
    return n ? [n] : [];
  }
  // Monthly gifts' own news (stripe-subscriptions.server.ts, then the register: donations/monthly.server.ts).
  if (SUBSCRIPTION_EVENTS.has(event.type)) return [{ kind: 'subscription', event: { id: event.id, type: event.type, object: event.data.object } }];
  return [];
}

export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  monthly: true,
  // Stripe takes 100 requests a second in live mode and 25 in test mode; a start is one (a Checkout session).
  startsPerSecond: 25,
  cancelledOnReturn: true,
  /** Stripe Checkout, a page of Stripe's (no script of Stripe's on ours). */
  browser: ({ env }) => ({ hosted: origins('https://checkout.stripe.com', originOf(env.STRIPE_API_BASE)) }),
  /** Checkout sends the payer back with its session's id (`session_id={CHECKOUT_SESSION_ID}`). */
  readReturn(query) {
    const ref = query.get('session_id') ?? '';
    return /^cs_\w{1,200}$/.test(ref) ? { ref } : null;
  },
  // Without a trusted origin to send the donor back to, nothing is recorded (ADR 010).
  plan(deps, r) {
    returnOrigin(deps.publicUrl, 'stripe');
    return { amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents };
  },
  async start(deps, donation, r) {
    const origin = returnOrigin(deps.publicUrl, 'stripe');
    const m = messagesFor(r.lang);
    const session = await createCheckoutSession(stripeOf(deps), {
      donationId: donation.id,
      amountCents: r.amountCents,
      priceId: r.monthly ? undefined : r.priceId,
      monthly: r.monthly,
      productName: r.productName ?? translate(m, r.monthly ? 'donate.monthlyProduct' : 'donate.productName'),
      successUrl: `${origin}${returnPaths(r).success}?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}${returnPaths(r).cancel}?d=${donation.id}`,
      locale: r.lang,
      campaignId: r.gift?.campaignId,
      feeCents: r.gift?.feeEurCents,
      feeName: translate(m, 'giving.feesLine'),
      paymentMethodTypes: deps.settings.giving?.stripeMethodTypes,
    });
    return { ref: session.id, url: session.url };
  },
  verify: (deps, donation) => retrieveSession(stripeOf(deps), donation.provider_ref),
  async parseWebhook(deps, rawBody, headers) {
    const secret = deps.settings.secrets['stripe.webhookSecret'];
    if (!secret) return { status: 400, message: 'webhook secret not configured' };
    let event: Stripe.Event;
    try {
      event = verifyWebhook(rawBody, headers.get('stripe-signature'), secret);
    } catch {
      return { status: 400, message: 'invalid signature' };
    }
    return { status: 200, message: 'ok', notices: await noticesOf(deps, event) };
  },
};
