import { messagesFor } from '~/lib/i18n.server';
import { LOCALES, translate } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import type { DonationDeps } from '../context.server';
import type { DonationStatus } from '../status';
import { findByRef, type Donation } from '../ledger.server';
import { fromDecimal, toDecimalString } from '~/lib/currency';
import { returnPaths, type PaymentProvider, type PaymentRequest } from './provider';
import { fetchJson, origins, originOf, ProviderError, returnOrigin, type VerifiedPayment } from './types';

/** What this provider's status means to the ledger; `null`: nothing final yet, the attempt stays as it is. */
export function payPalCaptureStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'COMPLETED':
      return 'succeeded';
    case 'DECLINED':
    case 'FAILED':
      return 'failed';
    case 'REFUNDED':
      return 'refunded';
    default:
      return null;
  }
}

/** The buttons' browser SDK. */
export const PAYPAL_SDK_DEFAULT = 'https://www.paypal.com/sdk/js';
export const PAYPAL_LIVE = 'https://api-m.paypal.com';
export const PAYPAL_SANDBOX = 'https://api-m.sandbox.paypal.com';

export interface PayPalConfig {
  base: string;
  clientId: string;
  clientSecret: string;
}

export function payPalBase(mode: 'sandbox' | 'live', override?: string): string {
  return (override ?? (mode === 'live' ? PAYPAL_LIVE : PAYPAL_SANDBOX)).replace(/\/$/, '');
}

/** POST /v1/oauth2/token (client credentials). */
async function accessToken(c: PayPalConfig): Promise<string> {
  const json = await fetchJson('paypal', `${c.base}/v1/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: 'grant_type=client_credentials',
  });
  if (typeof json.access_token !== 'string') throw new ProviderError('paypal', 'jeton OAuth absent');
  return json.access_token;
}

export async function call(c: PayPalConfig, path: string, init: { method: string; body?: unknown; rawBody?: string; requestId?: string }): Promise<any> {
  const token = await accessToken(c);
  return fetchJson('paypal', `${c.base}${path}`, {
    method: init.method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json', ...(init.requestId ? { 'PayPal-Request-Id': init.requestId } : {}) },
    // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
}

/** Where a payer approving on PayPal's own page comes back to (the redirect flow, no script on our page). */
export interface PayPalRedirect {
  returnUrl: string;
  cancelUrl: string;
  locale: string;
}

/**
 * POST /v2/checkout/orders, intent CAPTURE, in EUR. With `redirect`, the order carries PayPal's
 * experience context (return and cancel addresses) and PayPal answers the `payer-action` link the
 * payer is sent to; without it, the buttons' script approves the order in a pop-up.
 */
export async function createOrder(
  c: PayPalConfig,
  i: { donationId: string; amountCents: number; description: string; campaignId?: string | null; redirect?: PayPalRedirect },
): Promise<{ id: string; approveUrl: string | null }> {
  const json = await call(c, '/v2/checkout/orders', {
    method: 'POST',
    requestId: `create-${i.donationId}`,
    body: {
      intent: 'CAPTURE',
      purchase_units: [{ reference_id: designationRef(i.donationId, i.campaignId), custom_id: i.donationId, description: i.description, amount: { currency_code: 'EUR', value: toDecimalString(i.amountCents, 'EUR') } }],
      ...(i.redirect
        ? {
            payment_source: {
              paypal: {
                experience_context: { return_url: i.redirect.returnUrl, cancel_url: i.redirect.cancelUrl, locale: i.redirect.locale, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' },
              },
            },
          }
        : {}),
    },
  });
  if (typeof json.id !== 'string' || !/^[A-Z0-9-]{1,64}$/i.test(json.id)) throw new ProviderError('paypal', 'commande sans identifiant');
  const link = Array.isArray(json.links) ? json.links.find((l: any) => l?.rel === 'payer-action' || l?.rel === 'approve') : undefined;
  const approveUrl = typeof link?.href === 'string' && /^https?:\/\//.test(link.href) ? link.href : null;
  return { id: json.id, approveUrl };
}

/** The purchase unit's reference_id: the donation id, and `:{campaign id}` when the gift is designated. */
const designationRef = (donationId: string, campaignId?: string | null) => (campaignId ? `${donationId}:${campaignId}` : donationId);

function designationOf(referenceId: unknown): string | null | undefined {
  if (typeof referenceId !== 'string') return undefined;
  const i = referenceId.indexOf(':');
  return i < 0 ? null : referenceId.slice(i + 1);
}

/** What a captured (or re-fetched) order says: COMPLETED capture, amount and currency. */
// `json` is an object (fetchJson throws otherwise); its fields are optional.
function orderPayment(json: any): VerifiedPayment & { customId: string | null } {
  const unit = json.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const currency = typeof capture?.amount?.currency_code === 'string' ? capture.amount.currency_code : null;
  const name = [json.payer?.name?.given_name, json.payer?.name?.surname].filter(Boolean).join(' ');
  return {
    ref: String(json.id ?? ''),
    customId: typeof unit?.custom_id === 'string' ? unit.custom_id : typeof capture?.custom_id === 'string' ? capture.custom_id : null,
    status: json.status === 'COMPLETED' ? payPalCaptureStatus(capture?.status) : json.status === 'VOIDED' ? 'cancelled' : null,
    amountMinor: currency ? fromDecimal(capture?.amount?.value, currency) : null,
    currency,
    donorName: name || null,
    donorEmail: typeof json.payer?.email_address === 'string' ? json.payer.email_address : null,
    designation: designationOf(unit?.reference_id),
  };
}

/** An order id as PayPal writes them, before it goes into a path. */
function checkedOrderId(orderId: string): string {
  if (!/^[A-Z0-9-]{1,64}$/i.test(orderId)) throw new ProviderError('paypal', 'identifiant de commande invalide');
  return orderId;
}

export async function captureOrder(c: PayPalConfig, orderId: string): Promise<VerifiedPayment & { customId: string | null }> {
  return orderPayment(await call(c, `/v2/checkout/orders/${checkedOrderId(orderId)}/capture`, { method: 'POST', requestId: `capture-${orderId}`, body: {} }));
}

/**
 * PayPal's word on an order once the payer's approval is acted on: an order the payer approved is
 * captured (idempotent: PayPal-Request-Id), any other is read as it stands. PayPal takes the money
 * only when asked to capture, so an approval nobody acts on (the payer closed the page before
 * coming back, the buttons' capture never reached us) would otherwise never be paid: the return
 * page, the periodic re-check and the CHECKOUT.ORDER.APPROVED webhook all come here.
 */
export async function settledOrder(c: PayPalConfig, orderId: string): Promise<VerifiedPayment & { customId: string | null }> {
  // Stryker disable next-line ObjectLiteral: fetch's default method is GET
  const order = await call(c, `/v2/checkout/orders/${checkedOrderId(orderId)}`, { method: 'GET' });
  return order.status === 'APPROVED' ? captureOrder(c, orderId) : orderPayment(order);
}

/**
 * POST /v1/notifications/verify-webhook-signature: PayPal itself says whether a webhook is genuine.
 * The signature covers the body's bytes, so the event goes back exactly as it came (`rawBody`, a
 * JSON text already parsed once by the caller), never re-serialised.
 */
export async function verifyWebhookSignature(c: PayPalConfig, webhookId: string, headers: Headers, rawBody: string): Promise<boolean> {
  const h = (n: string) => headers.get(n) ?? '';
  if (!h('paypal-transmission-sig') || !h('paypal-transmission-id')) return false;
  const fields = JSON.stringify({
    auth_algo: h('paypal-auth-algo'),
    cert_url: h('paypal-cert-url'),
    transmission_id: h('paypal-transmission-id'),
    transmission_sig: h('paypal-transmission-sig'),
    transmission_time: h('paypal-transmission-time'),
    webhook_id: webhookId,
  });
  const json = await call(c, '/v1/notifications/verify-webhook-signature', { method: 'POST', rawBody: `${fields.slice(0, -1)},"webhook_event":${rawBody}}` });
  return json.verification_status === 'SUCCESS';
}

// ——— the provider (ADR 019) ———

export function payPalOf(deps: Pick<DonationDeps, 'settings' | 'env'>): PayPalConfig {
  const clientSecret = deps.settings.secrets['paypal.clientSecret'];
  if (!clientSecret || !deps.settings.paypal.clientId) throw new ProviderError('paypal', 'configuration incomplète');
  return { base: payPalBase(deps.settings.paypal.mode, deps.env.PAYPAL_API_BASE), clientId: deps.settings.paypal.clientId, clientSecret };
}

/** PayPal's word on an order, when the order is this attempt's (its custom_id, when it has one, is our id). */
export function orderAnswer(donation: Donation, p: VerifiedPayment & { customId: string | null }): VerifiedPayment | null {
  return p.customId && p.customId !== donation.id ? null : { ...p, ref: donation.provider_ref };
}

/** The return pages on the trusted origin (ADR 010), naming the attempt; PayPal adds `token` and `PayerID`. */
function redirectOf(deps: Pick<DonationDeps, 'publicUrl'>, donation: Donation, r: PaymentRequest): PayPalRedirect {
  const origin = returnOrigin(deps.publicUrl, 'paypal');
  const paths = returnPaths(r);
  return { returnUrl: `${origin}${paths.success}?d=${donation.id}`, cancelUrl: `${origin}${paths.cancel}?d=${donation.id}`, locale: LOCALES[r.lang] };
}

export const payPalProvider: PaymentProvider = {
  name: 'paypal',
  monthly: false,
  cancelledOnReturn: false,
  /** PayPal's approval page (a plain form), or its buttons' SDK in the donate page (PAYPAL_SDK_URL for a fake). */
  browser({ env }) {
    const url = env.PAYPAL_SDK_URL ?? PAYPAL_SDK_DEFAULT;
    const paypal = ['https://www.paypal.com', 'https://www.sandbox.paypal.com'];
    return {
      hosted: origins(...paypal, originOf(env.PAYPAL_API_BASE)),
      script: { url, frames: origins(originOf(url), ...paypal), connect: origins(originOf(url), ...paypal) },
    };
  },
  plan: (_deps, r) => ({ amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents }),
  async start(deps, donation, r) {
    const redirect = r.hostedCheckout ? redirectOf(deps, donation, r) : undefined;
    const description = r.productName ?? translate(messagesFor(r.lang), 'donate.productName');
    const order = await createOrder(payPalOf(deps), { donationId: donation.id, amountCents: r.amountCents, description, campaignId: r.gift?.campaignId, redirect });
    if (redirect && !order.approveUrl) throw new ProviderError('paypal', 'commande sans lien d’approbation');
    return { ref: order.id, url: redirect ? order.approveUrl! : undefined };
  },
  verify: async (deps, donation) => orderAnswer(donation, await settledOrder(payPalOf(deps), donation.provider_ref)),
  /** Verified by PayPal's API, then the order is re-fetched before anything counts. */
  async parseWebhook(deps, rawBody, headers) {
    const webhookId = deps.settings.paypal.webhookId;
    if (!webhookId) return { status: 400, message: 'webhook id not configured' };
    let event: any;
    try {
      event = JSON.parse(rawBody);
    } catch {
      return { status: 400, message: 'invalid body' };
    }
    if (!(await verifyWebhookSignature(payPalOf(deps), webhookId, headers, rawBody))) return { status: 400, message: 'invalid signature' };
    const orderId = event?.resource?.supplementary_data?.related_ids?.order_id ?? (event?.resource_type === 'checkout-order' ? event?.resource?.id : undefined);
    if (typeof orderId !== 'string') return { status: 200, message: 'ignored' };
    const donation = await findByRef(deps.db, 'paypal', orderId);
    if (!donation) return { status: 200, message: 'unknown order' };
    // Every event, a refund included, is settled by what the order now says (an approved order is
    // captured first: CHECKOUT.ORDER.APPROVED is PayPal's word that the payer said yes). PayPal sends
    // PAYMENT.CAPTURE.REFUNDED for partial refunds too: only a capture refunded in full (REFUNDED)
    // refunds the gift and cancels its receipt; after a partial one (PARTIALLY_REFUNDED) the gift
    // stays as it is, as after a partial Stripe refund (ADR 008).
    const p = orderAnswer(donation, await settledOrder(payPalOf(deps), orderId));
    if (!p) return { status: 200, message: 'ok' };
    if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && p.status !== 'refunded') {
      log.warn('partial refund left as it is: the gift and its receipt keep their amount', { donationId: donation.id, provider: 'paypal' });
    }
    return { status: 200, message: 'ok', notices: [{ kind: 'verified', payment: p, donation }] };
  },
};
