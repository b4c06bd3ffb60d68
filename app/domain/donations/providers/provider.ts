import { sitePath, type Lang } from '~/lib/lang-path';
import type { DonationDeps } from '../context.server';
import type { Donation, GiftDetails, NewAttempt } from '../ledger.server';
import type { GiftChange, SubscriptionState } from '../monthly.server';
import type { ProviderName } from '../status';
import type { BalanceCapability } from './balance';
import type { VerifiedPayment } from './types';

/**
 * The one shape every payment provider has (ADR 019). A provider module implements it; the
 * registry (registry.server.ts) maps names to modules; starting, settling and re-checking
 * (payments.server.ts) are written once, against this interface, with no switch on the provider.
 */

/** What a payment is for: its events carry it, so each purpose's subscribers act on their own payments. */
export type PaymentPurpose = 'gift' | 'dues';

/** What the caller asks to be paid, in the same words whatever the provider. */
export interface PaymentRequest {
  purpose: PaymentPurpose;
  /** Euro cents (the amount already includes the fees the payer chose to cover). */
  amountCents: number;
  monthly: boolean;
  lang: Lang;
  /** A Stripe preset price (one-off card gifts). */
  priceId?: string;
  /**
   * The payer as our form knows them (a member, a mobile money donor): recorded with the attempt,
   * and kept when the provider names its payer otherwise (ledger's `transition`).
   */
  donorName?: string | null;
  donorEmail?: string | null;
  /** Given to a hosted checkout that asks for it (Flutterwave's mobile money prompt). */
  donorPhone?: string | null;
  /** A local-currency amount typed by the payer (mobile money in a currency other than XOF/XAF). */
  localMinor?: number;
  /** Recorded with the attempt, never taken from a provider. */
  taxDetails?: string | null;
  gift?: GiftDetails;
  newsletter?: boolean;
  /**
   * Where the payer comes back, for a purpose with its own return pages (dues: /devenir-membre/…);
   * paths on the trusted origin, the provider adds its own query (`session_id`, `d`). Gifts: /payment/….
   */
  returns?: { success: string; cancel: string };
  /** The line the provider's checkout shows (a gift's product name when not said). */
  productName?: string;
  /**
   * The payer leaves for the provider's own page and comes back to `returns` (a plain form, no
   * script on our page): PayPal's approval page, Flutterwave's hosted checkout. Card and crypto
   * always work so; without it, PayPal and mobile money are opened by their scripts (the donate form).
   */
  hostedCheckout?: boolean;
}

/**
 * The return pages of a request (ADR 019): the purpose's own, or the gifts' /payment/success and
 * /payment/cancel, at the payer's language's address (ADR 026).
 */
export const returnPaths = (r: Pick<PaymentRequest, 'returns' | 'lang'>) => {
  const paths = r.returns ?? { success: '/payment/success', cancel: '/payment/cancel' };
  return { success: sitePath(r.lang, paths.success), cancel: sitePath(r.lang, paths.cancel) };
};

/** The attempt's row as a provider wants it recorded before it is called. */
export type AttemptPlan = Pick<NewAttempt, 'amountMinor' | 'currency' | 'eurCents'> &
  Partial<Pick<NewAttempt, 'providerRef' | 'callbackTokenHash' | 'verifiable' | 'donorEmail' | 'donorName'>> & {
    /** A secret the provider will be given at start (CoinGate's callback token); only its hash is stored. */
    token?: string;
    /** Where the payer goes when the provider is not called at all (a payment link). */
    url?: string;
  };

/** What a provider answered when asked to start: its reference, and where the payer goes (or what the page opens). */
export interface Started {
  ref?: string;
  url?: string;
}

/**
 * A payer's dispute of a payment (a card chargeback, a SEPA direct debit returned by the bank), in
 * our words (ADR 027): `open` while the provider waits for an answer (the money may be held but the
 * gift still counts), `lost` once the money is taken back for good, `won` when it stays ours.
 */
export type DisputeOutcome = 'open' | 'won' | 'lost';
export interface PaymentDispute {
  /** The provider's id of the dispute. */
  ref: string;
  outcome: DisputeOutcome;
  /** The provider's reason code, as it gives it (null when none). */
  reason: string | null;
  /** What the payer's bank says of it, in French, for the back office. */
  reasonLabel: string;
  amountMinor: number;
  currency: string;
}

/** What one webhook says, in the ledger's words; applied by the generic code (payments.server.ts). */
export type WebhookNotice =
  /** The provider's verified word on one attempt (already asked of the provider, or a signed event). */
  | { kind: 'verified'; payment: VerifiedPayment; donation?: Donation }
  /** A payment refunded in full. */
  | { kind: 'refunded'; donation: Donation }
  /** News of a dispute of a payment of ours (disputes.server.ts): a lost one refunds it. */
  | { kind: 'disputed'; donation: Donation; dispute: PaymentDispute }
  /** A payment the provider made on its own (a monthly renewal), recorded as succeeded; it renews `first`. */
  | { kind: 'renewed'; attempt: NewAttempt & { providerRef: string }; first: Donation; paidAt?: Date }
  /** A subscription's own news (failed instalment, change, end), for the provider's subscriptions capability. */
  | { kind: 'subscription'; event: { id: string; type: string; object: unknown } };

export interface WebhookAnswer {
  status: 200 | 400;
  message: string;
  notices?: WebhookNotice[];
}

/**
 * Monthly payments a provider charges on its own (Stripe subscriptions), recorded by the register
 * of monthly gifts (donations/monthly.server.ts); a donor's changes: donations/donor-gifts.server.ts.
 */
export interface SubscriptionCapability {
  onWebhook(deps: DonationDeps, event: WebhookNotice & { kind: 'subscription' }): Promise<void>;
  /**
   * Asks the provider to change subscription `id`; the state its answer shows, only when the answer
   * shows the change (else, or when refused or unreachable, a ProviderError).
   */
  change(deps: DonationDeps, id: string, change: GiftChange): Promise<SubscriptionState>;
  /** A page of the provider's where the payer updates their means of payment, coming back to `returnUrl`. */
  paymentUpdateUrl(deps: DonationDeps, id: string, returnUrl: string, lang: Lang): Promise<string>;
  /** The account's running subscriptions, whoever started them (moving in, ADR 037). */
  listExisting?(deps: DonationDeps): Promise<ExistingSubscription[]>;
  /** One of them as the provider has it now; null when it has none by that id. */
  readExisting?(deps: DonationDeps, id: string): Promise<ExistingSubscription | null>;
}

/** A subscription running at the provider, in our words, for adopting it as a monthly gift (ADR 037). */
export interface ExistingSubscription {
  id: string;
  amountMinor: number;
  currency: string;
  /** When it started at the provider, and its next instalment (ISO 8601). */
  startedAt: string;
  nextAt: string | null;
  email: string | null;
  name: string | null;
  lang: Lang;
  /** Why it cannot be a monthly gift here (another currency or rhythm…); null when it can. */
  refusal: string | null;
}

/**
 * What a payer's return address says in a provider's own words (its query): read only to find our
 * attempt and what to ask the provider, never believed (a payment counts on the provider's verified
 * answer only).
 */
export interface ReturnQuery {
  /** The provider's reference of the attempt (Stripe's Checkout session, Flutterwave's tx_ref). */
  ref: string;
  /** A payment the return names (Flutterwave's transaction id): verified with the provider before anything counts. */
  proof?: string;
  /** The payer says they closed the provider's page (Flutterwave's `status=cancelled`). */
  cancelled?: boolean;
}

/**
 * Where a payer's browser meets a provider (ADR 019), for the pages' Content-Security-Policy: its
 * hosted pages (a plain form leads there) and, for a checkout its own script opens in our page,
 * that script's address and the frames and APIs it uses. The configured API base of a local fake
 * or sandbox is among the hosted origins.
 */
export interface BrowserOrigins {
  hosted: string[];
  script?: { url: string; frames: string[]; connect: string[] };
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Where the browser meets this provider (CSP origins). */
  browser(deps: Pick<DonationDeps, 'env' | 'settings'>): BrowserOrigins;
  /** Whether monthly payments can be started here. */
  readonly monthly: boolean;
  /**
   * Payment starts a second this process may ask of the provider (start-pace.server.ts); none: no
   * pace is kept.
   */
  readonly startsPerSecond?: number;
  /** Whether the donor's coming back through /payment/cancel closes a pending attempt (the others are settled by the provider only). */
  readonly cancelledOnReturn: boolean;
  /** The row to record before the call: amount and currency in the provider's terms, references known up front. */
  plan(deps: DonationDeps, r: PaymentRequest): AttemptPlan;
  /** Calls the provider for a recorded attempt; a failure throws (the attempt is then failed by the caller). */
  start?(deps: DonationDeps, donation: Donation, r: PaymentRequest, plan: AttemptPlan): Promise<Started>;
  /**
   * Asks the provider about one attempt: its verified answer, or nothing when it says nothing that
   * is this attempt's. Where the payer's yes is not yet a payment, it is acted on first (PayPal: an
   * approved order is captured), so that a payer's return, a re-check and a webhook settle alike.
   */
  verify?(deps: DonationDeps, donation: Donation): Promise<VerifiedPayment | null>;
  /** Reads this provider's own words in a return address's query; null when there are none. */
  readReturn?(query: URLSearchParams): ReturnQuery | null;
  /** Verifies the payment a return names (`ReturnQuery.proof`): the answer only when it is exactly this attempt's. */
  verifyReturn?(deps: DonationDeps, donation: Donation, proof: string): Promise<VerifiedPayment | null>;
  /** Reads a webhook (its authenticity checked here); what it says, as notices. */
  parseWebhook?(deps: DonationDeps, rawBody: string, headers: Headers): Promise<WebhookAnswer>;
  subscriptions?: SubscriptionCapability;
  /** The provider's own ledger: fees, nets and payouts (ADR 033); none when its answers give no fee. */
  balance?: BalanceCapability;
}
