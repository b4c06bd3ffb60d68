import type { DonationDeps } from '~/domain/donations/context.server';
import { findById, type Donation } from '~/domain/donations/ledger.server';
import { startPayment } from '~/domain/donations/payments.server';
import { availableMethods } from '~/domain/donations/providers/settings.server';
import { ProviderBusy, ProviderError } from '~/domain/donations/providers/types';
import { renewalCampaignId } from '~/domain/campaigns/campaigns.server';
import { providerFor, storedAs } from '~/domain/means/means';
import type { Lang, MessageKey } from '~/lib/i18n';
import { log } from '~/lib/log.server';
import { expiryFrom, signature, signatureMatches, stillValid } from '~/lib/signed-link.server';
import { donateLimit } from './start.server';
import { METHOD_RULES } from './form';

/**
 * "Make it monthly" (issue 41, ADR 031): on the thank-you page of a one-off gift by card or SEPA
 * direct debit, the donor is offered to give the same amount, or a quarter of it, every month, in
 * one step: a button that opens the provider's checkout for a monthly gift carrying the first gift's
 * receipt details, campaign (while it takes gifts) and address. The offer is signed for the gift it
 * follows (the thank-you page's address names a payment, not a person), lasts a day, and is no
 * longer made once the donor gives monthly.
 */

/** How long the thank-you page's offer holds (a donor who comes back the next day gives from the donate page). */
export const MONTHLY_OFFER_MS = 24 * 60 * 60 * 1000;
/** The smallest monthly share suggested, in cents. */
export const MIN_SHARE_CENTS = 500;

/** A one-off gift's states after which the offer is made: paid, or a direct debit on its way. */
const GIVEN = new Set(['succeeded', 'processing']);

export type MonthlyChoice = 'same' | 'share';

export interface MonthlyOffer {
  /** The first gift's amount (without the fees it covered), in euro cents. */
  sameCents: number;
  /** A quarter of it rounded to 5 €, at least 5 €; null when that is not less than the amount. */
  shareCents: number | null;
  /** Signs the offer for this gift until it expires. */
  token: string;
}

/** The gift's own amount: what the donor gave, without the fees they chose to cover. */
const giftCents = (d: Donation) => (d.eur_cents ?? d.amount_minor) - d.fee_eur_cents;

/** A quarter of the amount, to the nearest 5 € (a monthly share a donor reads at a glance), never below 5 €. */
export function monthlyShare(cents: number): number | null {
  const share = Math.max(MIN_SHARE_CENTS, Math.round(cents / 4 / 500) * 500);
  return share < cents ? share : null;
}

const offerMessage = (donationId: string, expires: number) => `monthly\n${donationId}\n${expires}`;

export function offerToken(secret: string, donationId: string, now = new Date()): string {
  const expires = expiryFrom(now, MONTHLY_OFFER_MS);
  return `${donationId}.${expires}.${signature(secret, offerMessage(donationId, expires))}`;
}

/** The gift an offer's token names, or null when forged, altered or expired. */
export function giftOfOfferToken(secret: string, token: string, now = new Date()): string | null {
  const m = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expires = Number(m[2]);
  return stillValid(expires, now) && signatureMatches(secret, offerMessage(m[1], expires), m[3]) ? m[1] : null;
}

/** Whether the donor of `d` already gives monthly since (a monthly gift paid or on its way, by the same address, after it). */
async function givesMonthlySince(deps: Pick<DonationDeps, 'db'>, d: Donation): Promise<boolean> {
  if (!d.donor_email) return false;
  const row = await deps.db
    .selectFrom('donations')
    .select('id')
    .where('purpose', '=', 'gift')
    .where('frequency', '=', 'monthly')
    .where('status', 'in', [...GIVEN])
    .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', d.donor_email!.toLowerCase()))
    .where('created_at', '>=', d.created_at)
    .executeTakeFirst();
  return Boolean(row);
}

/** Whether a gift may be made monthly now: a one-off gift by the monthly gifts' means, given, while monthly gifts are on offer. */
async function eligible(deps: Pick<DonationDeps, 'db' | 'settings'>, d: Donation): Promise<boolean> {
  if (d.purpose !== 'gift' || d.frequency !== 'once' || d.provider !== storedAs('card') || !GIVEN.has(d.status)) return false;
  if (!METHOD_RULES.card.monthly || !availableMethods(deps.settings).card || giftCents(d) <= 0) return false;
  return !(await givesMonthlySince(deps, d));
}

/** The offer the thank-you page of `d` makes; null when none is. */
export async function monthlyOfferFor(deps: Pick<DonationDeps, 'db' | 'settings'>, secret: string, d: Donation, now = new Date()): Promise<MonthlyOffer | null> {
  if (!(await eligible(deps, d))) return null;
  const cents = giftCents(d);
  return { sameCents: cents, shareCents: monthlyShare(cents), token: offerToken(secret, d.id, now) };
}

export type MonthlyStart = { ok: true; url: string } | { ok: false; status: 400 | 429 | 502 | 503; error: MessageKey; retryAfter?: number };

/**
 * The donor took the offer: a monthly gift of the chosen amount is started at the provider, with
 * the first gift's details; where the donor goes to confirm it, or why not.
 */
export async function makeMonthly(deps: DonationDeps, r: { secret: string; token: string; choice: string; lang: Lang; clientIp: string; now?: Date }): Promise<MonthlyStart> {
  const refuse = (error: MessageKey, status: 400 | 429 | 502 | 503 = 400, retryAfter?: number): MonthlyStart => ({ ok: false, status, error, retryAfter });
  // The donate page's limit, before anything is looked at: offers are not tried by the thousand.
  const limit = await donateLimit(deps.db, r.clientIp);
  if (!limit.allowed) return refuse('donate.tooMany', 429, limit.retryAfter);
  const id = giftOfOfferToken(r.secret, r.token, r.now);
  const first = id ? await findById(deps.db, id) : undefined;
  const offer = first ? await monthlyOfferFor(deps, r.secret, first, r.now) : null;
  if (!first || !offer) return refuse('payment.monthlyExpired');
  const cents = r.choice === 'same' ? offer.sameCents : r.choice === 'share' && offer.shareCents ? offer.shareCents : null;
  if (cents === null) return refuse('payment.monthlyChoose');
  try {
    const started = await startPayment(deps, providerFor('card')!, {
      purpose: 'gift',
      amountCents: cents,
      monthly: true,
      lang: r.lang,
      donorName: first.donor_name,
      donorEmail: first.donor_email,
      taxDetails: first.tax_details,
      // The first gift's campaign while it takes gifts (the rule of a monthly gift's renewals).
      gift: { campaignId: await renewalCampaignId(deps.db, first.campaign_id, r.now), feeEurCents: 0 },
    });
    return { ok: true, url: started.url! };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if (e instanceof ProviderBusy) return refuse('donate.busy', 503, e.retryAfter);
    // Stryker disable next-line StringLiteral,ObjectLiteral: the log's words
    log.warn('monthly gift could not start', { provider: e.provider, error: e.message });
    return refuse('donate.providerDown', 502);
  }
}
