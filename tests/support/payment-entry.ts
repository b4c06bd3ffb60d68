import type { GiftDetails, Donation } from '~/domain/donations/ledger.server';
import { handleWebhook, startPayment, type WebhookOutcome } from '~/domain/donations/payments.server';
import { approvedInPage, payerReturn } from '~/domain/donations/returns.server';
import type { PaymentRequest } from '~/domain/donations/providers/provider';
import type { DonationDeps } from '~/domain/donations/context.server';
import type { Lang } from '~/lib/i18n';

/**
 * The tests' named ways into the payment pipeline, per provider: each is one `startPayment` or
 * `handleWebhook` call (payments.server.ts) with the gift's purpose, as startGift
 * (app/domain/giving/start.server.ts) and the webhook routes make it. The tests drive a provider's
 * start, webhook or return with them without the donate form in front; the rest of
 * service.server.ts is re-exported.
 */
export * from '~/domain/donations/service.server';

/** What a return page asks of the one road back (returns.server.ts); a provider that could not be asked throws, as it did. */
async function returned(deps: DonationDeps, query: Record<string, string>): Promise<Donation | undefined> {
  const r = await payerReturn(deps, new URLSearchParams(query));
  if (r.unconfirmed) throw r.unconfirmed;
  return r.payment;
}

/** The payer back from Stripe's Checkout: /payment/success?session_id=…. */
export const confirmStripeSession = (deps: DonationDeps, sessionId: string) => returned(deps, { session_id: sessionId });

/** The payer back from the mobile money checkout: its callback's tx_ref and transaction_id. */
export const confirmFlutterwave = (deps: DonationDeps, txRef: string, transactionId: string) => returned(deps, { tx_ref: txRef, transaction_id: transactionId });

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

export const handleStripeWebhook = (deps: DonationDeps, rawBody: string, signature: string | null): Promise<WebhookOutcome> =>
  handleWebhook(deps, 'stripe', rawBody, new Headers(signature === null ? {} : { 'stripe-signature': signature }));

export const handleCoinGateCallback = (deps: DonationDeps, form: URLSearchParams): Promise<WebhookOutcome> => handleWebhook(deps, 'coingate', form.toString(), new Headers());

export const handlePayPalWebhook = (deps: DonationDeps, rawBody: string, headers: Headers): Promise<WebhookOutcome> => handleWebhook(deps, 'paypal', rawBody, headers);

export const handleFlutterwaveWebhook = (deps: DonationDeps, rawBody: string, verifHash: string | null): Promise<WebhookOutcome> =>
  handleWebhook(deps, 'flutterwave', rawBody, new Headers(verifHash === null ? {} : { 'verif-hash': verifHash }));


/** The PayPal buttons' onApprove, as their route asks it (the one road back: returns.server.ts). */
export const capturePayPalDonation = (deps: DonationDeps, orderId: string): Promise<Donation | undefined> => approvedInPage(deps, 'paypal', orderId);
