import { fromDecimal, toDecimalString } from '../money';
import { coinGateStatus } from './statuses';
import { fetchJson, ProviderError, type VerifiedPayment } from './types';

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
