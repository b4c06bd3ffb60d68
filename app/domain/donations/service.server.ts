import type { DB } from '~db/index';
import type { Lang } from '~/lib/i18n';
import type { DonationDeps } from './context.server';
import { findById, findByRef, type Donation, type GiftDetails } from './ledger.server';
import { cancelAttempt as cancel, confirmReturn, handleWebhook, settle, startPayment, type WebhookOutcome } from './payments.server';
import { verifyFlutterwaveTransaction } from './providers/flutterwave.server';
import { captureOrder, orderAnswer, payPalOf } from './providers/paypal.server';
import type { PaymentRequest } from './providers/provider';

/**
 * A gift's ways through the payment pipeline (payments.server.ts), in the words each donate-page
 * entry point uses: every one is the generic start, settle or webhook with the gift's purpose.
 */
export type { DonationDeps } from './context.server';
export { recheck, recheckPending, RECHECK_WINDOW_MS, type WebhookOutcome } from './payments.server';
export { sendReceipt } from './thanks.server';
export { activeProducts } from './payment-settings.server';

/** What the donate form adds to a gift, the same for every method; recorded with the attempt. */
export interface FormChoices {
  /** Donor details for the tax receipt (JSON), null when none is wanted. */
  taxDetails?: string | null;
  /** Campaign, fees covered, dedication (the amount already includes the fees). */
  gift?: GiftDetails;
  /** "Recevoir des nouvelles de la fondation" ticked (a dated consent, ADR 013). */
  newsletter?: boolean;
}

const gift = (r: FormChoices & { lang: Lang }, amountCents: number, monthly = false): PaymentRequest => ({
  purpose: 'gift',
  amountCents,
  monthly,
  lang: r.lang,
  taxDetails: r.taxDetails,
  gift: r.gift,
  newsletter: r.newsletter,
});

export interface CardRequest extends FormChoices {
  amountCents: number;
  priceId?: string;
  monthly: boolean;
  lang: Lang;
}

/** Records the attempt, creates the Checkout Session and returns where to send the donor. */
export async function startCardDonation(deps: DonationDeps, r: CardRequest): Promise<{ url: string; donation: Donation }> {
  const s = await startPayment(deps, 'stripe', { ...gift(r, r.amountCents, r.monthly), priceId: r.priceId });
  return { url: s.url!, donation: s.donation };
}

export async function startCryptoDonation(deps: DonationDeps, r: FormChoices & { amountCents: number; lang: Lang; email?: string | null }): Promise<{ url: string; donation: Donation }> {
  const s = await startPayment(deps, 'coingate', { ...gift(r, r.amountCents), donorEmail: r.email ?? null });
  return { url: s.url!, donation: s.donation };
}

/** Link mode: the attempt is recorded as unverifiable and the donor sent on. */
export async function startLinkDonation(deps: DonationDeps, r: { lang: Lang }): Promise<{ url: string; donation: Donation }> {
  const s = await startPayment(deps, 'mobile_link', gift(r, 0));
  return { url: s.url!, donation: s.donation };
}

/** The buttons' createOrder: records the attempt and creates the order at PayPal. */
export async function startPayPalDonation(deps: DonationDeps, r: FormChoices & { amountCents: number; lang: Lang }): Promise<{ orderId: string; donation: Donation }> {
  const s = await startPayment(deps, 'paypal', gift(r, r.amountCents));
  return { orderId: s.donation.provider_ref, donation: s.donation };
}

/** What the inline checkout is opened with: our tx_ref and the amount in the configured currency. */
export async function startMobileDonation(
  deps: DonationDeps,
  r: FormChoices & { eurCents?: number; localMinor?: number; name: string; email: string; phone: string; lang: Lang },
): Promise<{ txRef: string; amountMinor: number; currency: string; donation: Donation }> {
  const s = await startPayment(deps, 'flutterwave', { ...gift(r, r.eurCents ?? 0), localMinor: r.localMinor, donorName: r.name, donorEmail: r.email });
  return { txRef: s.donation.provider_ref, amountMinor: s.donation.amount_minor, currency: s.donation.currency, donation: s.donation };
}

/** /payment/success?session_id=…: asks Stripe, never the browser, whether it was paid. */
export async function confirmStripeSession(deps: DonationDeps, sessionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'stripe', sessionId);
  return donation && confirmReturn(deps, donation);
}

/** The buttons' onApprove: captures; succeeds only for a COMPLETED capture of the expected amount in EUR. */
export async function capturePayPalDonation(deps: DonationDeps, orderId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'paypal', orderId);
  if (!donation) return undefined;
  if (donation.status === 'pending' || donation.status === 'cancelled') {
    const p = orderAnswer(donation, await captureOrder(payPalOf(deps), orderId));
    if (p) await settle(deps, 'paypal', { ...p, status: p.status ?? 'failed' }, donation);
  }
  return findById(deps.db, donation.id);
}

/** The inline checkout's callback: the transaction id is verified with the secret key, and counts only when exactly this gift's. */
export async function confirmFlutterwave(deps: DonationDeps, txRef: string, transactionId: string): Promise<Donation | undefined> {
  const donation = await findByRef(deps.db, 'flutterwave', txRef);
  if (!donation) return undefined;
  const p = await verifyFlutterwaveTransaction(deps, donation, transactionId);
  if (p) await settle(deps, 'flutterwave', p, donation);
  return findById(deps.db, donation.id);
}

export const handleStripeWebhook = (deps: DonationDeps, rawBody: string, signature: string | null): Promise<WebhookOutcome> =>
  handleWebhook(deps, 'stripe', rawBody, new Headers(signature === null ? {} : { 'stripe-signature': signature }));

export const handleCoinGateCallback = (deps: DonationDeps, form: URLSearchParams): Promise<WebhookOutcome> => handleWebhook(deps, 'coingate', form.toString(), new Headers());

export const handlePayPalWebhook = (deps: DonationDeps, rawBody: string, headers: Headers): Promise<WebhookOutcome> => handleWebhook(deps, 'paypal', rawBody, headers);

export const handleFlutterwaveWebhook = (deps: DonationDeps, rawBody: string, verifHash: string | null): Promise<WebhookOutcome> =>
  handleWebhook(deps, 'flutterwave', rawBody, new Headers(verifHash === null ? {} : { 'verif-hash': verifHash }));

/** /payment/cancel?d=…: see payments.server.ts's cancelAttempt. */
export const cancelAttempt = (db: DB, id: string): Promise<'cancelled' | 'unconfirmed'> => cancel({ db }, id);
