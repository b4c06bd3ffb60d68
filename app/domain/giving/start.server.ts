import { coverFeesCents, feePercentOf } from '~/domain/campaigns/giving';
import type { DonationDeps } from '~/domain/donations/context.server';
import type { Donation } from '~/domain/donations/ledger.server';
import { exponent } from '~/lib/currency';
import { isCfa, providerFor } from '~/domain/means/means';
import { parseEuroAmount } from '~/domain/donations/money';
import { activeProducts, availableMethods } from '~/domain/donations/providers/settings.server';
import { startPayment } from '~/domain/donations/payments.server';
import { ProviderBusy, ProviderError } from '~/domain/donations/providers/types';
import type { TaxFieldError } from '~/domain/receipts/donor-details';
import { receiptOffer } from '~/domain/receipts/settings.server';
import type { Lang, MessageKey } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { campaignPresetCents, designated } from './choices.server';
import { METHOD_RULES, readGiftForm, type GiftForm, type GiftMethod } from './form';

/**
 * Starting a gift, once for every method (issue 30, ADR 019): the method on offer, the rate limit,
 * the form read by its schema (form.ts), the designation open today, the amount (a preset, a typed
 * amount, a campaign's suggestion, the local currency of mobile money), the fees, the dedication,
 * the receipt's details and the news consent; then `startPayment` with the purpose 'gift'. The
 * routes (the donate page, the PayPal and mobile money API) only read the request, call this and
 * answer.
 */

/** The page's tab a method belongs to (the payment link is how the mobile money tab may be set up). */
const TAB: Record<GiftMethod, 'card' | 'crypto' | 'paypal' | 'mobileMoney'> = { card: 'card', crypto: 'crypto', paypal: 'paypal', mobileMoney: 'mobileMoney', mobileLink: 'mobileMoney' };

/** Requests per address on the donate page and its API (starts, PayPal captures): 20 every 10 minutes, whatever the method. */
export const DONATE_LIMIT = 20;
export const DONATE_WINDOW_MS = 10 * 60 * 1000;
export const donateLimit = (db: DonationDeps['db'], clientIp: string) => hitRateLimit(db, `donate:${clientIp}`, DONATE_LIMIT, DONATE_WINDOW_MS);

export interface GiftRequest {
  method: GiftMethod;
  /** The form as posted (page) or sent by the page's script (JSON body), as flat strings. */
  fields: Record<string, string>;
  lang: Lang;
  clientIp: string;
}

export type GiftRefusal = {
  ok: false;
  status: 400 | 429 | 502 | 503;
  error: MessageKey;
  detail?: MessageKey;
  vars?: Record<string, string>;
  retryAfter?: number;
  tax?: { errors: TaxFieldError[]; values: Record<string, string> };
};

export type GiftStarted = { ok: true; donation: Donation; url?: string; form: GiftForm };

type Amount = { cents: number; priceId?: string; localMinor?: number } | { refusal: MessageKey };

/** The gift's amount in euro cents (or, for mobile money outside the CFA francs, in its own currency). */
async function amountOf(deps: DonationDeps, f: GiftForm): Promise<Amount> {
  const a = f.amount;
  if (!a) return { cents: 0 };
  if ('cents' in a) {
    if (f.method !== 'mobileMoney') return { cents: a.cents };
    // CFA francs: the donor typed euros (converted at the parity). Other currencies: typed in that
    // currency, whose minor unit may be the whole unit (UGX, RWF: no decimals allowed).
    const currency = deps.settings.mobileMoney.currency;
    if (isCfa(currency)) return { cents: a.cents };
    if (exponent(currency) > 0) return { cents: 0, localMinor: a.cents };
    return a.cents % 100 === 0 ? { cents: 0, localMinor: a.cents / 100 } : { refusal: 'donate.invalidAmount' };
  }
  if (a.preset.startsWith('campaign:')) {
    const cents = await campaignPresetCents(deps.db, a.preset);
    return cents === null ? { refusal: 'donate.missingAmount' } : { cents };
  }
  const product = activeProducts(deps.settings).find((p) => p.id === a.preset);
  const parsed = product ? parseEuroAmount(product.amount) : null;
  return product && parsed?.ok ? { cents: parsed.cents, priceId: product.priceId } : { refusal: 'donate.missingAmount' };
}

export async function startGift(deps: DonationDeps, r: GiftRequest): Promise<GiftStarted | GiftRefusal> {
  const refuse = (error: MessageKey, more: Partial<GiftRefusal> = {}): GiftRefusal => ({ ok: false, status: 400, error, ...more });
  const s = deps.settings;
  if (!availableMethods(s)[TAB[r.method]]) return refuse(r.method === 'card' ? 'donate.configError' : 'donate.unavailable');
  // Mobile money is either the inline checkout or a payment link, as the settings say.
  if (TAB[r.method] === 'mobileMoney' && (s.mobileMoney.integrationType === 'link') !== (r.method === 'mobileLink')) return refuse('donate.unavailable');
  const limit = await donateLimit(deps.db, r.clientIp);
  if (!limit.allowed) return refuse('donate.tooMany', { status: 429, retryAfter: limit.retryAfter });
  const read = readGiftForm(r.method, r.fields, await receiptOffer(deps.db));
  if (!read.ok) return refuse(read.error, read.tax ? { tax: read.tax } : {});
  const f = read.form;
  const campaign = await designated(deps.db, f.campaign, r.lang);
  if (!campaign.ok) return refuse(campaign.error, { vars: campaign.vars });
  const amount = await amountOf(deps, f);
  if ('refusal' in amount) return refuse(amount.refusal);
  const fee = f.coverFees ? coverFeesCents(amount.cents, feePercentOf(s.giving?.feePercent)) : 0;
  try {
    const started = await startPayment(deps, providerFor(r.method)!, {
      purpose: 'gift',
      amountCents: amount.cents + fee,
      monthly: f.monthly,
      lang: r.lang,
      priceId: amount.priceId,
      localMinor: amount.localMinor,
      // The donor's name and address as the method asks them (a hosted checkout asks its own).
      donorName: METHOD_RULES[f.method].contact === 'nameEmailPhone' ? f.name : null,
      donorEmail: METHOD_RULES[f.method].contact === 'none' ? null : f.email,
      taxDetails: f.taxDetails ? JSON.stringify(f.taxDetails) : null,
      gift: { campaignId: campaign.campaign?.id ?? null, feeEurCents: fee, dedication: f.dedication },
      newsletter: f.newsletter,
    });
    return { ok: true, donation: started.donation, url: started.url, form: f };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if (e instanceof ProviderBusy) return refuse('donate.busy', { status: 503, retryAfter: e.retryAfter });
    log.warn('donation could not start', { provider: e.provider, error: e.message });
    // Flutterwave refuses at plan time only an amount it cannot convert: the donor changes the amount.
    return r.method === 'mobileMoney' ? refuse('donate.invalidAmount') : refuse('donate.paymentError', { status: 502, detail: 'donate.providerDown' });
  }
}
