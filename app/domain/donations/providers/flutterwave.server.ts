import { isCfa } from '~/domain/means/means';
import { randomBytes } from 'node:crypto';
import { log } from '~/lib/log.server';
import { safeEqual, type DonationDeps } from '../context.server';
import type { DonationStatus } from '../status';
import { findByRef, type Donation } from '../ledger.server';
import { fromDecimal, toDecimalString } from '~/lib/currency';
import { eurCentsToCfa } from '../money';
import { messagesFor } from '~/lib/i18n.server';
import { translate } from '~/lib/i18n';
import { returnPaths, type PaymentProvider } from './provider';
import { fetchJson, origins, originOf, ProviderError, returnOrigin, type VerifiedPayment } from './types';

/** What this provider's status means to the ledger; `null`: nothing final yet, the attempt stays as it is. */
export function flutterwaveStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'successful':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return null;
  }
}

/** The inline checkout's browser script. */
export const FLUTTERWAVE_SCRIPT_DEFAULT = 'https://checkout.flutterwave.com/v3.js';
export const FLUTTERWAVE_API = 'https://api.flutterwave.com';

export interface FlutterwaveConfig {
  base: string;
  secretKey: string;
}

function payment(json: any): VerifiedPayment & { txRef: string | null } {
  // Stryker disable next-line OptionalChaining: fetchJson returns an object or throws
  const d = json?.data;
  // Stryker disable next-line OptionalChaining: fetchJson returns an object or throws
  if (json?.status !== 'success' || !d || typeof d !== 'object') throw new ProviderError('flutterwave', 'réponse illisible');
  const currency = typeof d.currency === 'string' ? d.currency.toUpperCase() : null;
  let amountMinor: number | null = null;
  try {
    amountMinor = currency ? fromDecimal(d.amount, currency) : null;
  } catch {
    amountMinor = null;
  }
  return {
    ref: String(d.tx_ref ?? ''),
    txRef: typeof d.tx_ref === 'string' ? d.tx_ref : null,
    status: flutterwaveStatus(d.status),
    amountMinor,
    currency,
    donorName: typeof d.customer?.name === 'string' ? d.customer.name : null,
    donorEmail: typeof d.customer?.email === 'string' ? d.customer.email : null,
    secondaryRef: d.id === undefined ? null : String(d.id),
    // The checkout's `meta` (campaigns): compared with our row, never taken from here.
    designation: d.meta && typeof d.meta === 'object' ? (typeof d.meta.campaign_id === 'string' ? d.meta.campaign_id : null) : undefined,
  };
}

/** GET /v3/transactions/{id}/verify with the secret key. */
export async function verifyTransaction(c: FlutterwaveConfig, id: string) {
  if (!/^\d{1,20}$/.test(id)) throw new ProviderError('flutterwave', 'identifiant de transaction invalide');
  return payment(await fetchJson('flutterwave', `${c.base}/v3/transactions/${id}/verify`, { headers: { Authorization: `Bearer ${c.secretKey}`, Accept: 'application/json' } }));
}

/** GET /v3/transactions/verify_by_reference?tx_ref=… (re-check of a pending attempt). */
export async function verifyByReference(c: FlutterwaveConfig, txRef: string) {
  return payment(await fetchJson('flutterwave', `${c.base}/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(txRef)}`, { headers: { Authorization: `Bearer ${c.secretKey}`, Accept: 'application/json' } }));
}

/**
 * POST /v3/payments (Flutterwave Standard): a hosted checkout for our tx_ref and amount, the payer
 * sent to its `link` and back to `redirectUrl` with `status`, `tx_ref` and `transaction_id` added
 * (never trusted: the return page asks the API).
 */
export async function hostedPayment(
  c: FlutterwaveConfig,
  i: { txRef: string; amountMinor: number; currency: string; redirectUrl: string; customer: { email: string; name: string; phonenumber?: string }; title: string },
): Promise<string> {
  const json = await fetchJson('flutterwave', `${c.base}/v3/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${c.secretKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({
      tx_ref: i.txRef,
      amount: toDecimalString(i.amountMinor, i.currency),
      currency: i.currency,
      redirect_url: i.redirectUrl,
      payment_options: 'mobilemoney,ussd',
      customer: i.customer,
      customizations: { title: i.title },
    }),
  });
  const link = json?.data?.link;
  if (json?.status !== 'success' || typeof link !== 'string' || !/^https?:\/\//.test(link)) throw new ProviderError('flutterwave', 'paiement sans lien');
  return link;
}

// ——— the provider (ADR 019) ———

export function flutterwaveOf(deps: DonationDeps): FlutterwaveConfig {
  const secretKey = deps.settings.secrets['mobileMoney.secretKey'];
  if (!secretKey) throw new ProviderError('flutterwave', 'configuration incomplète');
  return { secretKey, base: (deps.env.FLUTTERWAVE_API_BASE ?? FLUTTERWAVE_API).replace(/\/$/, '') };
}

/**
 * A verified Flutterwave transaction, only when it is exactly the gift's (tx_ref, amount,
 * currency). Anyone can name any real transaction, or open a checkout of 1 XOF with our tx_ref: one
 * that is not exactly ours is logged as suspicious and ignored, and the gift stays as it was until
 * a transaction that is exactly its own settles it (#12).
 */
function exactly(donation: Donation, p: Awaited<ReturnType<typeof verifyTransaction>>): VerifiedPayment | null {
  if (p.txRef !== donation.provider_ref || p.amountMinor !== donation.amount_minor || p.currency !== donation.currency) {
    log.warn('suspicious flutterwave transaction ignored', {
      donationId: donation.id,
      transactionId: p.secondaryRef,
      expected: `${donation.provider_ref} ${donation.amount_minor} ${donation.currency}`,
      got: `${p.txRef ?? '?'} ${p.amountMinor ?? '?'} ${p.currency ?? '?'}`,
    });
    return null;
  }
  return { ...p, ref: donation.provider_ref };
}

/** The inline checkout's callback (or the webhook): a transaction id, verified with the secret key. */
export async function verifyFlutterwaveTransaction(deps: DonationDeps, donation: Donation, transactionId: string): Promise<VerifiedPayment | null> {
  return exactly(donation, await verifyTransaction(flutterwaveOf(deps), transactionId));
}

/** Our transaction references: a prefix and 12 random bytes in hex. */
const TX_REF_PREFIX = 'thv-';
const TX_REF = /^thv-[0-9a-f]{24}$/;

export const flutterwaveProvider: PaymentProvider = {
  name: 'flutterwave',
  monthly: false,
  cancelledOnReturn: false,
  /** Flutterwave's hosted checkout (a plain form), or its inline checkout script in the donate page (FLUTTERWAVE_SCRIPT_URL for a fake). */
  browser({ env }) {
    const url = env.FLUTTERWAVE_SCRIPT_URL ?? FLUTTERWAVE_SCRIPT_DEFAULT;
    const checkout = ['https://checkout.flutterwave.com', 'https://checkout-v3-ui-prod.f4b-flutterwave.com'];
    return {
      hosted: origins(...checkout, originOf(env.FLUTTERWAVE_API_BASE)),
      script: { url, frames: origins(originOf(url), ...checkout), connect: origins(originOf(url), FLUTTERWAVE_API) },
    };
  },
  /** Our tx_ref and the amount in the configured currency: what the inline checkout is opened with; nothing is called. */
  plan(deps, r) {
    const currency = deps.settings.mobileMoney.currency;
    const cfa = isCfa(currency);
    const amountMinor = cfa ? eurCentsToCfa(r.amountCents) : (r.localMinor ?? 0);
    if (amountMinor <= 0) throw new ProviderError('flutterwave', 'montant invalide');
    return { providerRef: `${TX_REF_PREFIX}${randomBytes(12).toString('hex')}`, amountMinor, currency, eurCents: cfa ? r.amountCents : null, donorName: r.donorName, donorEmail: r.donorEmail };
  },
  /** Only for a hosted checkout (a plain form): the donate form's script opens the inline checkout itself. */
  async start(deps, donation, r) {
    if (!r.hostedCheckout) return {};
    if (!r.donorEmail) throw new ProviderError('flutterwave', 'adresse email requise');
    const origin = returnOrigin(deps.publicUrl, 'flutterwave');
    const url = await hostedPayment(flutterwaveOf(deps), {
      txRef: donation.provider_ref,
      amountMinor: donation.amount_minor,
      currency: donation.currency,
      redirectUrl: `${origin}${returnPaths(r).success}?d=${donation.id}`,
      customer: { email: r.donorEmail, name: r.donorName ?? '', ...(r.donorPhone ? { phonenumber: r.donorPhone } : {}) },
      title: r.productName ?? translate(messagesFor(r.lang), 'donate.productName'),
    });
    return { url };
  },
  verify: async (deps, donation) => exactly(donation, await verifyByReference(flutterwaveOf(deps), donation.provider_ref)),
  /** The checkout sends the payer back with `tx_ref`, and `transaction_id` when it took a payment, or `status=cancelled`. */
  readReturn(query) {
    const ref = query.get('tx_ref') ?? '';
    if (!TX_REF.test(ref)) return null;
    const proof = query.get('transaction_id') ?? '';
    return { ref, ...(/^\d{1,20}$/.test(proof) ? { proof } : {}), ...(query.get('status') === 'cancelled' ? { cancelled: true } : {}) };
  },
  verifyReturn: verifyFlutterwaveTransaction,
  /** The verif-hash header must equal the configured hash; then the transaction is re-verified through the API. */
  async parseWebhook(deps, rawBody, headers) {
    const expected = deps.settings.secrets['mobileMoney.secretHash'];
    const verifHash = headers.get('verif-hash');
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
    const donation = await findByRef(deps.db, 'flutterwave', txRef);
    const p = donation ? await verifyFlutterwaveTransaction(deps, donation, id) : null;
    return { status: 200, message: 'ok', notices: p && donation ? [{ kind: 'verified', payment: p, donation }] : [] };
  },
};
