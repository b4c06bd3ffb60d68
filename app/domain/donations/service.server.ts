import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import type { DB } from '~db/index';
import { sendDedicationNotice } from '~/domain/campaigns/dedication.server';
import { renewalCampaignId } from '~/domain/campaigns/campaigns.server';
import type { Env } from '~/lib/env.server';
import { messagesFor } from '~/lib/i18n.server';
import { isLang, translate, type Lang } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import { escapeMailHtml as esc, mailConfigFor, sendMail } from '~/lib/mail.server';
import type { Storage } from '~/lib/storage.server';
import { announceRefund, giftReceiptForMail } from '~/domain/receipts/mail.server';
import { claimReceipt, createAttempt, type GiftDetails, findById, findByRef, findBySecondaryRef, pendingAttempts, recordSucceeded, setProviderRef, transition, type Donation, type Transition } from './ledger.server';
import { eurCentsToCfa, formatMoney } from './money';
import { activeProducts, type PaymentSettings } from './payment-settings.server';
import { coinGateBase, createOrder, getOrder } from './providers/coingate.server';
import { FLUTTERWAVE_API, verifyByReference, verifyTransaction } from './providers/flutterwave.server';
import * as paypal from './providers/paypal.server';
import { createCheckoutSession, invoiceOfCharge, retrieveSession, sessionPayment, stripeClient, verifyWebhook, type ChargeLike } from './providers/stripe.server';
import { ProviderError, returnOrigin, type VerifiedPayment } from './providers/types';
import type { ProviderName } from './status';
import { recordFailedInstalment, subscriptionOfInvoice, syncMonthlyGift } from '~/domain/donors/monthly.server';
import { dateTimeFormat } from '~/lib/intl';

/** What every donation operation needs: the database, the settings (secrets in clear) and where we live. */
export interface DonationDeps {
  db: DB;
  settings: PaymentSettings;
  env: Env;
  /**
   * Our public origin, for links in mails, return URLs and callbacks: PUBLIC_URL, or a loopback
   * address the request came to; undefined when the request named a Host we cannot trust (ADR 010).
   */
  publicUrl: string | undefined;
  /** Media storage (a receipt's signature image); without it receipts print the typed signature only. */
  storage?: Storage;
  /** Told when a gift designated to a campaign succeeds or is refunded (its public pages show totals). */
  campaignGiftChanged?: (kind: 'succeeded' | 'refunded') => Promise<void>;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y) && a.length === b.length;
}

// ——— after a status change ———

/** Sends the receipt of a donation that just succeeded, once, in the donor's language. */
export async function sendReceipt(deps: Pick<DonationDeps, 'db' | 'env' | 'publicUrl' | 'storage'>, donation: Donation): Promise<void> {
  if (!donation.donor_email) return;
  if (!(await claimReceipt(deps.db, donation.id))) return;
  const lang: Lang = isLang(donation.language) ? donation.language : 'fr';
  const m = messagesFor(lang);
  const amount = formatMoney(donation.amount_minor, donation.currency, lang);
  const date = dateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(donation.succeeded_at ?? donation.updated_at));
  const vars = { name: donation.donor_name || m.receipt.friend, amount, date, reference: donation.id };
  // The tax receipt (when the gift has one) rides along: a sentence in the donor's language, the PDF in French.
  const tax = await giftReceiptForMail(deps.db, donation.id, lang, deps.storage);
  const lines = [translate(m, 'receipt.greeting', vars), '', translate(m, 'receipt.body', vars), translate(m, 'receipt.reference', vars), ...(tax ? [tax.line] : []), '', translate(m, 'receipt.thanks', vars)];
  await sendMail(deps.db, mailConfigFor(deps.env, deps.publicUrl), {
    to: donation.donor_email,
    subject: translate(m, 'receipt.subject', vars),
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${esc(l)}</p>` : '')).join('\n'),
    ...(tax ? { attachments: [tax.attachment] } : {}),
  });
}

async function after(deps: DonationDeps, t: Transition): Promise<Transition> {
  if (t.changed && t.donation) {
    log.info('donation status changed', { donationId: t.donation.id, provider: t.donation.provider, status: t.donation.status });
    if (t.donation.status === 'succeeded') {
      await sendReceipt(deps, t.donation).catch((e) => log.error('receipt failed', { donationId: t.donation?.id, error: e instanceof Error ? e.message : String(e) }));
      await sendDedicationNotice(deps, t.donation).catch((e) => log.error('dedication notice failed', { donationId: t.donation?.id, error: e instanceof Error ? e.message : String(e) }));
    }
    const status = t.donation.status;
    if (t.donation.campaign_id && (status === 'succeeded' || status === 'refunded')) {
      await deps.campaignGiftChanged?.(status).catch((e) => log.warn('campaign pages not refreshed', { error: e instanceof Error ? e.message : String(e) }));
    }
    if (t.cancelledReceipts?.length) {
      await announceRefund(deps.db, mailConfigFor(deps.env, deps.publicUrl), { cancelled: t.cancelledReceipts, reissued: t.reissuedReceipts ?? [] }, `${deps.publicUrl ?? ''}/admin/receipts`, deps.storage).catch((e) =>
        log.error('receipt cancellation notice failed', { donationId: t.donation?.id, error: e instanceof Error ? e.message : String(e) }),
      );
    }
  }
  return t;
}

/**
 * Applies what a provider verifiably said about one attempt. Success counts only when the amount
 * and currency are exactly those of the attempt; otherwise the attempt fails with the reason.
 */
export async function applyVerified(deps: DonationDeps, provider: ProviderName, p: VerifiedPayment, known?: Donation): Promise<Transition> {
  const donation = known ?? (await findByRef(deps.db, provider, p.ref));
  if (!donation) return { changed: false };
  if (!p.status) {
    if (p.secondaryRef && !donation.secondary_ref) await deps.db.updateTable('donations').set({ secondary_ref: p.secondaryRef }).where('id', '=', donation.id).execute();
    return { changed: false };
  }
  // The designation is the one stored on our row at attempt creation; a provider's metadata that
  // names another campaign (a tampered or mixed-up callback) changes nothing and is logged.
  if (p.designation !== undefined && (p.designation || null) !== (donation.campaign_id || null)) {
    log.warn('payment designation does not match its attempt', { donationId: donation.id, provider, expected: donation.campaign_id, got: p.designation });
  }
  const extra = { donorName: p.donorName, donorEmail: p.donorEmail, secondaryRef: p.secondaryRef };
  if (p.status === 'succeeded' && (p.amountMinor !== donation.amount_minor || p.currency !== donation.currency)) {
    log.warn('payment does not match its attempt', { donationId: donation.id, expected: `${donation.amount_minor} ${donation.currency}`, got: `${p.amountMinor} ${p.currency}` });
    return after(deps, await transition(deps.db, { id: donation.id }, 'failed', { ...extra, error: `Montant ou devise inattendus : ${p.amountMinor ?? '?'} ${p.currency ?? '?'}` }));
  }
  return after(deps, await transition(deps.db, { id: donation.id }, p.status, extra));
}

// ——— card (Stripe) ———

function stripeOf(deps: DonationDeps): Stripe {
  const key = deps.settings.secrets['stripe.secretKey'];
  if (!key) throw new ProviderError('stripe', 'configuration incomplète');
  return stripeClient(key, deps.env.STRIPE_API_BASE);
}

/** What the donate form adds to a gift, the same for every method; recorded with the attempt. */
export interface FormChoices {
  /** Donor details for the tax receipt (JSON), null when none is wanted. */
  taxDetails?: string | null;
  /** Campaign, fees covered, dedication (the amount already includes the fees). */
  gift?: GiftDetails;
  /** "Recevoir des nouvelles de la fondation" ticked (a dated consent, ADR 013). */
  newsletter?: boolean;
}

const choicesOf = (r: FormChoices): FormChoices => ({ taxDetails: r.taxDetails, gift: r.gift, newsletter: r.newsletter });

export interface CardRequest extends FormChoices {
  amountCents: number;
  priceId?: string;
  monthly: boolean;
  lang: Lang;
}

/** Records the attempt, creates the Checkout Session and returns where to send the donor. */
export async function startCardDonation(deps: DonationDeps, r: CardRequest): Promise<{ url: string; donation: Donation }> {
  const origin = returnOrigin(deps.publicUrl, 'stripe');
  const donation = await createAttempt(deps.db, { provider: 'stripe', amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents, frequency: r.monthly ? 'monthly' : 'once', language: r.lang, ...choicesOf(r) });
  try {
    const session = await createCheckoutSession(stripeOf(deps), {
      donationId: donation.id,
      amountCents: r.amountCents,
      priceId: r.monthly ? undefined : r.priceId,
      monthly: r.monthly,
      productName: translate(messagesFor(r.lang), r.monthly ? 'donate.monthlyProduct' : 'donate.productName'),
      successUrl: `${origin}/payment/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}/payment/cancel?d=${donation.id}`,
      locale: r.lang,
      campaignId: r.gift?.campaignId,
      feeCents: r.gift?.feeEurCents,
      feeName: translate(messagesFor(r.lang), 'giving.feesLine'),
      paymentMethodTypes: deps.settings.giving?.stripeMethodTypes,
    });
    await setProviderRef(deps.db, donation.id, session.id);
    return { url: session.url, donation: { ...donation, provider_ref: session.id } };
  } catch (e) {
    await transition(deps.db, { id: donation.id }, 'failed', { error: e instanceof Error ? e.message.slice(0, 300) : String(e) });
    throw e;
  }
}

/** /payment/success?session_id=…: asks Stripe, never the browser, whether it was paid. */
export async function confirmStripeSession(deps: DonationDeps, sessionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'stripe', sessionId);
  if (!donation) return undefined;
  if (donation.status === 'pending' || donation.status === 'cancelled') await applyVerified(deps, 'stripe', await retrieveSession(stripeOf(deps), sessionId), donation);
  return findById(deps.db, donation.id);
}

export type WebhookOutcome = { status: 200 | 400; message: string };

/**
 * The gift a fully refunded charge paid. A one-off gift keeps its PaymentIntent; a monthly
 * instalment is found through the invoice the charge paid (asked of Stripe): a renewal is recorded
 * under its invoice, the first instalment under the checkout that started the subscription.
 */
async function refundedGift(deps: DonationDeps, charge: ChargeLike): Promise<Donation | undefined> {
  const pi = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  const oneOff = pi ? await findBySecondaryRef(deps.db, 'stripe', pi) : undefined;
  if (oneOff) return oneOff;
  const invoice = await invoiceOfCharge(stripeOf(deps), charge);
  if (!invoice) return undefined;
  const subId = subscriptionOfInvoice(invoice);
  if (!subId) return undefined;
  const renewal = await findByRef(deps.db, 'stripe', invoice.id);
  if (renewal) return renewal;
  // The first instalment's row is the checkout that started the subscription (renewals, recorded later, carry its id too).
  return invoice.billing_reason === 'subscription_create' ? findBySecondaryRef(deps.db, 'stripe', subId) : undefined;
}

/** POST /webhooks/stripe, raw body in hand. */
export async function handleStripeWebhook(deps: DonationDeps, rawBody: string, signature: string | null): Promise<WebhookOutcome> {
  const secret = deps.settings.secrets['stripe.webhookSecret'];
  if (!secret) return { status: 400, message: 'webhook secret not configured' };
  let event: Stripe.Event;
  try {
    event = verifyWebhook(rawBody, signature, secret);
  } catch {
    return { status: 400, message: 'invalid signature' };
  }
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const p = sessionPayment(event.data.object);
      if (event.type === 'checkout.session.async_payment_failed') p.status = 'failed';
      await applyVerified(deps, 'stripe', p);
      break;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      if (!charge.refunded) break;
      const donation = await refundedGift(deps, charge);
      if (donation) await after(deps, await transition(deps.db, { id: donation.id }, 'refunded'));
      break;
    }
    case 'invoice.paid': {
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | null };
      const sub = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
      const subId = typeof sub === 'string' ? sub : sub?.id;
      // The first invoice is the checkout itself, counted by checkout.session.completed.
      if (!subId || invoice.billing_reason === 'subscription_create' || !invoice.id) break;
      const first = await findBySecondaryRef(deps.db, 'stripe', subId);
      if (!first || invoice.currency.toUpperCase() !== 'EUR') break;
      // The campaign of the first gift, if it still takes gifts on the day this one was paid (a
      // webhook retried later still counts an instalment of the last day); after that, a general gift.
      const paidAt = invoice.status_transitions?.paid_at ?? invoice.created;
      const campaignId = await renewalCampaignId(deps.db, first.campaign_id, paidAt ? new Date(paidAt * 1000) : undefined);
      await after(
        deps,
        await recordSucceeded(deps.db, {
          provider: 'stripe',
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
          // Each renewal covers the fees the first gift chose, and goes to its campaign while that is open.
          gift: { campaignId, feeEurCents: invoice.amount_paid === first.amount_minor ? first.fee_eur_cents : 0 },
        }),
      );
      break;
    }
    // Monthly gifts as the donor space manages them (app/domain/donors).
    case 'invoice.payment_failed':
      await recordFailedInstalment(deps, event.data.object);
      break;
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await syncMonthlyGift(deps, event.data.object, event.id);
      break;
    default:
      break;
  }
  return { status: 200, message: 'ok' };
}

// ——— crypto (CoinGate) ———

function coinGateOf(deps: DonationDeps) {
  const authToken = deps.settings.secrets['coingate.authToken'];
  if (!authToken) throw new ProviderError('coingate', 'configuration incomplète');
  return { authToken, base: coinGateBase(deps.settings.coingate.mode, deps.env.COINGATE_API_BASE) };
}

export async function startCryptoDonation(deps: DonationDeps, r: FormChoices & { amountCents: number; lang: Lang; email?: string | null }): Promise<{ url: string; donation: Donation }> {
  const origin = returnOrigin(deps.publicUrl, 'coingate');
  const token = randomBytes(24).toString('base64url');
  // CoinGate gives no payer address: the thank-you (and receipt) goes to the one the donor typed, if any.
  const donation = await createAttempt(deps.db, { provider: 'coingate', amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents, frequency: 'once', language: r.lang, donorEmail: r.email ?? null, callbackTokenHash: sha256(token), ...choicesOf(r) });
  const m = messagesFor(r.lang);
  try {
    const order = await createOrder(coinGateOf(deps), {
      donationId: donation.id,
      amountCents: r.amountCents,
      title: translate(m, 'donate.productName'),
      description: translate(m, 'donate.cryptoDescription'),
      callbackUrl: `${origin}/webhooks/coingate`,
      successUrl: `${origin}/payment/success?d=${donation.id}`,
      cancelUrl: `${origin}/payment/cancel?d=${donation.id}`,
      token,
    });
    await setProviderRef(deps.db, donation.id, order.id);
    return { url: order.paymentUrl, donation: { ...donation, provider_ref: order.id } };
  } catch (e) {
    await transition(deps.db, { id: donation.id }, 'failed', { error: e instanceof Error ? e.message.slice(0, 300) : String(e) });
    throw e;
  }
}

/**
 * POST /webhooks/coingate (form-encoded): counts only when the per-order token matches and a
 * re-fetch of the order says so; the callback's own status and amount are never trusted.
 */
export async function handleCoinGateCallback(deps: DonationDeps, form: URLSearchParams): Promise<WebhookOutcome> {
  const id = form.get('id') ?? '';
  const token = form.get('token') ?? '';
  const donation = /^\d{1,20}$/.test(id) ? await findByRef(deps.db, 'coingate', id) : undefined;
  if (!donation || !donation.callback_token_hash || !token || !safeEqual(sha256(token), donation.callback_token_hash)) {
    return { status: 400, message: 'unknown order or bad token' };
  }
  const order = await getOrder(coinGateOf(deps), id);
  if (order.orderId !== donation.id) return { status: 400, message: 'order does not match' };
  await applyVerified(deps, 'coingate', order, donation);
  return { status: 200, message: 'ok' };
}

// ——— mobile money by payment link ———

/** Link mode: nobody can verify these; the attempt is recorded as unverifiable and the donor sent on. */
export async function startLinkDonation(deps: DonationDeps, r: { lang: Lang }): Promise<{ url: string; donation: Donation }> {
  const url = deps.settings.mobileMoney.paymentUrl;
  if (!/^https?:\/\//.test(url)) throw new ProviderError('mobile_link', 'lien de paiement absent');
  const donation = await createAttempt(deps.db, { provider: 'mobile_link', amountMinor: 0, currency: 'EUR', eurCents: null, frequency: 'once', language: r.lang, verifiable: false });
  return { url, donation };
}

// ——— PayPal ———

function payPalOf(deps: DonationDeps): paypal.PayPalConfig {
  const clientSecret = deps.settings.secrets['paypal.clientSecret'];
  if (!clientSecret || !deps.settings.paypal.clientId) throw new ProviderError('paypal', 'configuration incomplète');
  return { base: paypal.payPalBase(deps.settings.paypal.mode, deps.env.PAYPAL_API_BASE), clientId: deps.settings.paypal.clientId, clientSecret };
}

/** The buttons' createOrder: records the attempt and creates the order at PayPal. */
export async function startPayPalDonation(deps: DonationDeps, r: FormChoices & { amountCents: number; lang: Lang }): Promise<{ orderId: string; donation: Donation }> {
  const donation = await createAttempt(deps.db, { provider: 'paypal', amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents, frequency: 'once', language: r.lang, ...choicesOf(r) });
  try {
    const orderId = await paypal.createOrder(payPalOf(deps), { donationId: donation.id, amountCents: r.amountCents, description: translate(messagesFor(r.lang), 'donate.productName'), campaignId: r.gift?.campaignId });
    await setProviderRef(deps.db, donation.id, orderId);
    return { orderId, donation: { ...donation, provider_ref: orderId } };
  } catch (e) {
    await transition(deps.db, { id: donation.id }, 'failed', { error: e instanceof Error ? e.message.slice(0, 300) : String(e) });
    throw e;
  }
}

/** The buttons' onApprove: captures; succeeds only for a COMPLETED capture of the expected amount in EUR. */
export async function capturePayPalDonation(deps: DonationDeps, orderId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'paypal', orderId);
  if (!donation) return undefined;
  if (donation.status === 'pending' || donation.status === 'cancelled') {
    const p = await paypal.captureOrder(payPalOf(deps), orderId);
    if (p.customId && p.customId !== donation.id) return findById(deps.db, donation.id);
    await applyVerified(deps, 'paypal', { ...p, ref: orderId, status: p.status ?? 'failed' }, donation);
  }
  return findById(deps.db, donation.id);
}

/** POST /webhooks/paypal: verified by PayPal's API, then the order is re-fetched before anything counts. */
export async function handlePayPalWebhook(deps: DonationDeps, rawBody: string, headers: Headers): Promise<WebhookOutcome> {
  const webhookId = deps.settings.paypal.webhookId;
  if (!webhookId) return { status: 400, message: 'webhook id not configured' };
  let event: any;
  try {
    event = JSON.parse(rawBody);
  } catch {
    return { status: 400, message: 'invalid body' };
  }
  if (!(await paypal.verifyWebhookSignature(payPalOf(deps), webhookId, headers, rawBody))) return { status: 400, message: 'invalid signature' };
  const orderId = event?.resource?.supplementary_data?.related_ids?.order_id ?? (event?.resource_type === 'checkout-order' ? event?.resource?.id : undefined);
  if (typeof orderId !== 'string') return { status: 200, message: 'ignored' };
  const donation = await findByRef(deps.db, 'paypal', orderId);
  if (!donation) return { status: 200, message: 'unknown order' };
  // Every event, a refund included, is settled by what the order now says. PayPal sends
  // PAYMENT.CAPTURE.REFUNDED for partial refunds too: only a capture refunded in full (REFUNDED)
  // refunds the gift and cancels its receipt; after a partial one (PARTIALLY_REFUNDED) the gift
  // stays as it is, as after a partial Stripe refund (ADR 008).
  const p = await paypal.getOrder(payPalOf(deps), orderId);
  if (p.customId && p.customId !== donation.id) return { status: 200, message: 'ok' };
  await applyVerified(deps, 'paypal', { ...p, ref: orderId }, donation);
  if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && p.status !== 'refunded') {
    log.warn('partial refund left as it is: the gift and its receipt keep their amount', { donationId: donation.id, provider: 'paypal' });
  }
  return { status: 200, message: 'ok' };
}

// ——— mobile money (Flutterwave inline) ———

function flutterwaveOf(deps: DonationDeps) {
  const secretKey = deps.settings.secrets['mobileMoney.secretKey'];
  if (!secretKey) throw new ProviderError('flutterwave', 'configuration incomplète');
  return { secretKey, base: (deps.env.FLUTTERWAVE_API_BASE ?? FLUTTERWAVE_API).replace(/\/$/, '') };
}

/** What the inline checkout is opened with: our tx_ref and the amount in the configured currency. */
export async function startMobileDonation(
  deps: DonationDeps,
  r: FormChoices & { eurCents?: number; localMinor?: number; name: string; email: string; phone: string; lang: Lang },
): Promise<{ txRef: string; amountMinor: number; currency: string; donation: Donation }> {
  const currency = deps.settings.mobileMoney.currency;
  const cfa = currency === 'XOF' || currency === 'XAF';
  const amountMinor = cfa ? eurCentsToCfa(r.eurCents ?? 0) : (r.localMinor ?? 0);
  if (amountMinor <= 0) throw new ProviderError('flutterwave', 'montant invalide');
  const txRef = `thv-${randomBytes(12).toString('hex')}`;
  const donation = await createAttempt(deps.db, { provider: 'flutterwave', providerRef: txRef, amountMinor, currency, eurCents: cfa ? (r.eurCents ?? null) : null, frequency: 'once', language: r.lang, donorName: r.name, donorEmail: r.email, ...choicesOf(r) });
  return { txRef, amountMinor, currency, donation };
}

/**
 * Applies a verified Flutterwave transaction to a gift only when it is exactly the gift's (tx_ref,
 * amount, currency). Anyone can name any real transaction, or open a checkout of 1 XOF with our
 * tx_ref: one that is not exactly ours is logged as suspicious and ignored, and the gift stays as
 * it was until a transaction that is exactly its own settles it (#12).
 */
async function applyFlutterwave(deps: DonationDeps, donation: Donation, p: Awaited<ReturnType<typeof verifyTransaction>>): Promise<void> {
  if (p.txRef !== donation.provider_ref || p.amountMinor !== donation.amount_minor || p.currency !== donation.currency) {
    log.warn('suspicious flutterwave transaction ignored', {
      donationId: donation.id,
      transactionId: p.secondaryRef,
      expected: `${donation.provider_ref} ${donation.amount_minor} ${donation.currency}`,
      got: `${p.txRef ?? '?'} ${p.amountMinor ?? '?'} ${p.currency ?? '?'}`,
    });
    return;
  }
  await applyVerified(deps, 'flutterwave', { ...p, ref: donation.provider_ref }, donation);
}

/** The inline checkout's callback (or the webhook): verifies the transaction with the secret key. */
export async function confirmFlutterwave(deps: DonationDeps, txRef: string, transactionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'flutterwave', txRef);
  if (!donation) return undefined;
  await applyFlutterwave(deps, donation, await verifyTransaction(flutterwaveOf(deps), transactionId));
  return findById(deps.db, donation.id);
}

/** POST /webhooks/flutterwave: the verif-hash header must equal the configured hash; then re-verified through the API. */
export async function handleFlutterwaveWebhook(deps: DonationDeps, rawBody: string, verifHash: string | null): Promise<WebhookOutcome> {
  const expected = deps.settings.secrets['mobileMoney.secretHash'];
  if (!expected || !verifHash || !safeEqual(verifHash, expected)) return { status: 400, message: 'invalid verif-hash' };
  let event: any;
  try {
    event = JSON.parse(rawBody);
  } catch {
    return { status: 400, message: 'invalid body' };
  }
  const d = event?.data;
  const txRef = typeof d?.tx_ref === 'string' ? d.tx_ref : typeof d?.txRef === 'string' ? d.txRef : null;
  const id = d?.id === undefined ? null : String(d.id);
  if (!txRef || !id) return { status: 200, message: 'ignored' };
  await confirmFlutterwave(deps, txRef, id);
  return { status: 200, message: 'ok' };
}


/** Re-asks the provider about one pending attempt (success page, periodic re-check). */
export async function recheck(deps: DonationDeps, donation: Donation): Promise<void> {
  switch (donation.provider) {
    case 'stripe':
      await applyVerified(deps, 'stripe', await retrieveSession(stripeOf(deps), donation.provider_ref), donation);
      break;
    case 'coingate': {
      const order = await getOrder(coinGateOf(deps), donation.provider_ref);
      if (order.orderId === donation.id) await applyVerified(deps, 'coingate', order, donation);
      break;
    }
    case 'paypal': {
      const p = await paypal.getOrder(payPalOf(deps), donation.provider_ref);
      if (!p.customId || p.customId === donation.id) await applyVerified(deps, 'paypal', { ...p, ref: donation.provider_ref }, donation);
      break;
    }
    case 'flutterwave':
      await applyFlutterwave(deps, donation, await verifyByReference(flutterwaveOf(deps), donation.provider_ref));
      break;
    default:
      break;
  }
}

/** How long an unfinished attempt keeps being re-checked (abandoned checkouts stop being asked about). */
export const RECHECK_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Every pending attempt older than a minute (and younger than a week), re-checked; a provider that
 * is down is retried next time. An attempt still pending at the end of its week is asked about one
 * last time and, still unpaid, closed as cancelled ("Annulé"): a checkout the donor abandoned (a
 * PayPal order never approved, a mobile-money prompt never answered) no longer stays "En attente"
 * in the lists and reports for ever. A payment verified later still counts (cancelled → succeeded).
 * Answers the number of attempts the provider answered about.
 */
export async function recheckPending(deps: DonationDeps, now = new Date(), minAgeMs = 60_000): Promise<number> {
  const olderThan = new Date(now.getTime() - minAgeMs).toISOString();
  const windowStart = new Date(now.getTime() - RECHECK_WINDOW_MS).toISOString();
  let n = 0;
  const ask = async (d: Donation): Promise<boolean> => {
    try {
      await recheck(deps, d);
      n += 1;
      return true;
    } catch (e) {
      log.warn('pending donation re-check failed', { donationId: d.id, provider: d.provider, error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  };
  for (const d of await pendingAttempts(deps.db, olderThan, windowStart)) await ask(d);
  // The last question, for attempts past their week. Only the provider's answer closes one (a
  // status changes only on verified provider data, DEPARTURES): one that does not answer (down, or
  // no longer knowing an expired order) is asked again at each run for one more week, then left
  // pending and no longer asked.
  const lastAskedAfter = new Date(now.getTime() - 2 * RECHECK_WINDOW_MS).toISOString();
  for (const d of await pendingAttempts(deps.db, windowStart, lastAskedAfter)) {
    if (!(await ask(d))) continue;
    const { changed } = await after(deps, await transition(deps.db, { id: d.id }, 'cancelled'));
    if (changed) log.info('abandoned payment attempt closed', { donationId: d.id, provider: d.provider });
  }
  return n;
}

/** The providers we give /payment/cancel as the page to send a donor who did not pay back to. */
const CANCEL_PAGE_PROVIDERS: readonly ProviderName[] = ['stripe', 'coingate'];

/**
 * /payment/cancel?d=…: the donor came back without paying. A pending Stripe or CoinGate attempt
 * becomes cancelled (a later verified payment still counts). Any other provider's gift is settled
 * by that provider only (Flutterwave, PayPal: the webhook or a re-check of our own reference): the
 * page changes nothing, and says of a gift still pending that its payment is not confirmed (#12).
 */
export async function cancelAttempt(db: DB, id: string): Promise<'cancelled' | 'unconfirmed'> {
  const donation = /^[0-9a-f-]{36}$/.test(id) ? await findById(db, id) : undefined;
  if (!donation) return 'cancelled';
  if (!CANCEL_PAGE_PROVIDERS.includes(donation.provider as ProviderName)) return donation.status === 'pending' ? 'unconfirmed' : 'cancelled';
  await transition(db, { id }, 'cancelled');
  return 'cancelled';
}

export { activeProducts };
