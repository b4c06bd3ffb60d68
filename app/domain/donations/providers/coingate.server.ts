import { randomBytes } from 'node:crypto';
import { messagesFor } from '~/lib/i18n.server';
import { translate } from '~/lib/i18n';
import { safeEqual, sha256, type DonationDeps } from '../context.server';
import type { DonationStatus } from '../status';
import { findByRef } from '../ledger.server';
import { fromDecimal, toDecimalString } from '~/lib/currency';
import { returnPaths, type PaymentProvider } from './provider';
import { fetchJson, origins, originOf, ProviderError, returnOrigin, type VerifiedPayment } from './types';

/** What this provider's status means to the ledger; `null`: nothing final yet, the attempt stays as it is. */
export function coinGateStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'paid':
      return 'succeeded';
    case 'invalid':
      return 'failed';
    case 'expired':
    case 'canceled':
      return 'cancelled';
    case 'refunded':
      return 'refunded';
    default:
      return null;
  }
}

export const COINGATE_LIVE = 'https://api.coingate.com';
export const COINGATE_SANDBOX = 'https://api-sandbox.coingate.com';

export interface CoinGateConfig {
  authToken: string;
  base: string;
}

export function coinGateBase(mode: 'sandbox' | 'live', override?: string): string {
  return (override ?? (mode === 'live' ? COINGATE_LIVE : COINGATE_SANDBOX)).replace(/\/$/, '');
}

/** 127.0.0.0/8, ::1 or localhost: a CoinGate stand-in on this machine (tests, local development). */
function isLoopback(base: string): boolean {
  let host: string;
  try {
    host = new URL(base).hostname;
    // Stryker disable next-line BlockStatement: without a host nothing below matches either
  } catch {
    return false;
  }
  // Stryker disable next-line Regex: a host ending in four numbers is parsed as an IPv4 address, so it starts with 127 when it matches
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Where the donor may be sent to pay: HTTPS only, as CoinGate's own pages are; plain HTTP only when
 * the API itself is on this machine.
 */
export function isAcceptablePaymentUrl(base: string, paymentUrl: string): boolean {
  if (/^https:\/\/[^/]/.test(paymentUrl)) return true;
  return /^http:\/\/[^/]/.test(paymentUrl) && isLoopback(base);
}

export interface OrderInput {
  donationId: string;
  amountCents: number;
  title: string;
  description: string;
  callbackUrl: string;
  successUrl: string;
  cancelUrl: string;
  /** Echoed back in the callback; only its hash is stored. */
  token: string;
}

/** POST /v2/orders: returns the order id and the page the donor pays on. */
export async function createOrder(c: CoinGateConfig, i: OrderInput): Promise<{ id: string; paymentUrl: string }> {
  const body = new URLSearchParams({
    order_id: i.donationId,
    price_amount: toDecimalString(i.amountCents, 'EUR'),
    price_currency: 'EUR',
    receive_currency: 'EUR',
    title: i.title,
    description: i.description,
    callback_url: i.callbackUrl,
    success_url: i.successUrl,
    cancel_url: i.cancelUrl,
    token: i.token,
  });
  const json = await fetchJson('coingate', `${c.base}/v2/orders`, {
    method: 'POST',
    headers: { Authorization: `Token ${c.authToken}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body,
  });
  const id = json.id;
  const paymentUrl = json.payment_url;
  if ((typeof id !== 'number' && typeof id !== 'string') || typeof paymentUrl !== 'string' || !isAcceptablePaymentUrl(c.base, paymentUrl)) {
    throw new ProviderError('coingate', 'commande sans adresse de paiement');
  }
  return { id: String(id), paymentUrl };
}

/** GET /v2/orders/{id}: the order as CoinGate holds it. */
export async function getOrder(c: CoinGateConfig, id: string): Promise<VerifiedPayment & { orderId: string | null }> {
  if (!/^\d{1,20}$/.test(id)) throw new ProviderError('coingate', 'identifiant de commande invalide');
  const json = await fetchJson('coingate', `${c.base}/v2/orders/${id}`, { headers: { Authorization: `Token ${c.authToken}`, Accept: 'application/json' } });
  const currency = typeof json.price_currency === 'string' ? json.price_currency.toUpperCase() : null;
  return {
    ref: String(json.id),
    orderId: typeof json.order_id === 'string' ? json.order_id : null,
    status: coinGateStatus(json.status),
    amountMinor: currency === 'EUR' ? fromDecimal(json.price_amount, 'EUR') : null,
    currency,
  };
}

// ——— the provider (ADR 019) ———

function coinGateOf(deps: DonationDeps): CoinGateConfig {
  const authToken = deps.settings.secrets['coingate.authToken'];
  if (!authToken) throw new ProviderError('coingate', 'configuration incomplète');
  return { authToken, base: coinGateBase(deps.settings.coingate.mode, deps.env.COINGATE_API_BASE) };
}

/** The order, when it is this attempt's (CoinGate echoes our id as its order_id). */
async function orderOf(deps: DonationDeps, donationId: string, id: string) {
  const order = await getOrder(coinGateOf(deps), id);
  return order.orderId === donationId ? order : null;
}

/** CoinGate posts its callback form-encoded, or as JSON: read as a form either way (unreadable JSON: an empty form). */
export function callbackForm(rawBody: string, contentType: string | null): URLSearchParams {
  if (!(contentType ?? '').includes('json')) return new URLSearchParams(rawBody);
  try {
    const v: unknown = JSON.parse(rawBody);
    const entries = v && typeof v === 'object' ? Object.entries(v) : [];
    return new URLSearchParams(entries.map(([k, x]) => [k, typeof x === 'string' ? x : String(x ?? '')]));
  } catch {
    return new URLSearchParams();
  }
}

export const coinGateProvider: PaymentProvider = {
  name: 'coingate',
  monthly: false,
  cancelledOnReturn: true,
  /** CoinGate's invoice page, live or sandbox. */
  browser: ({ env }) => ({ hosted: origins('https://pay.coingate.com', 'https://pay-sandbox.coingate.com', originOf(env.COINGATE_API_BASE)) }),
  // CoinGate gives no payer address: the thank-you (and receipt) goes to the one the donor typed, if any.
  plan(deps, r) {
    // Without a trusted origin to send the donor back to, nothing is recorded (ADR 010).
    returnOrigin(deps.publicUrl, 'coingate');
    const token = randomBytes(24).toString('base64url');
    return { amountMinor: r.amountCents, currency: 'EUR', eurCents: r.amountCents, donorEmail: r.donorEmail ?? null, callbackTokenHash: sha256(token), token };
  },
  async start(deps, donation, r, plan) {
    const origin = returnOrigin(deps.publicUrl, 'coingate');
    const m = messagesFor(r.lang);
    const order = await createOrder(coinGateOf(deps), {
      donationId: donation.id,
      amountCents: r.amountCents,
      title: r.productName ?? translate(m, 'donate.productName'),
      description: translate(m, 'donate.cryptoDescription'),
      callbackUrl: `${origin}/webhooks/coingate`,
      successUrl: `${origin}${returnPaths(r).success}?d=${donation.id}`,
      cancelUrl: `${origin}${returnPaths(r).cancel}?d=${donation.id}`,
      token: plan.token!,
    });
    return { ref: order.id, url: order.paymentUrl };
  },
  verify: (deps, donation) => orderOf(deps, donation.id, donation.provider_ref),
  /**
   * CoinGate's callback (form-encoded or JSON, read as a form): counts only when the per-order
   * token matches and a re-fetch of the order says so; the callback's own status and amount are never trusted.
   */
  async parseWebhook(deps, rawBody, headers) {
    const form = callbackForm(rawBody, headers.get('content-type'));
    const id = form.get('id') ?? '';
    const token = form.get('token') ?? '';
    const donation = /^\d{1,20}$/.test(id) ? await findByRef(deps.db, 'coingate', id) : undefined;
    if (!donation || !donation.callback_token_hash || !token || !safeEqual(sha256(token), donation.callback_token_hash)) {
      return { status: 400, message: 'unknown order or bad token' };
    }
    const order = await orderOf(deps, donation.id, id);
    if (!order) return { status: 400, message: 'order does not match' };
    return { status: 200, message: 'ok', notices: [{ kind: 'verified', payment: order, donation }] };
  },
};
