import { log } from '~/lib/log.server';
import type { Receipt } from '~/domain/receipts/register.server';
import type { DonationDeps } from './context.server';
import type { Donation, Transition } from './ledger.server';

/**
 * What follows a payment, as events (ADR 019). The ledger changes a payment's status in one
 * transaction with what must be atomic with it (a receipt number, its cancellation, the activity
 * line); after the commit, `publish` hands one event to every subscriber the composition root
 * (server/runtime-hooks.ts) registered. A subscriber that fails is logged; the payment stands,
 * and the next subscribers still run.
 */
export type PaymentEventType = 'payment.processing' | 'payment.succeeded' | 'payment.failed' | 'payment.cancelled' | 'payment.refunded';

export interface PaymentEvent {
  type: PaymentEventType;
  /** What the payment is for ('gift'; membership dues will add theirs): subscribers act on their own purpose. */
  purpose: string;
  payment: Donation;
  /** The tax receipt numbered with this success, if any. */
  receipt: Receipt | null;
  /** Receipts a refund cancelled, and the corrected annual receipts issued in their place. */
  cancelledReceipts: Receipt[];
  reissuedReceipts: Receipt[];
}

export type PaymentSubscriber = (deps: DonationDeps, event: PaymentEvent) => Promise<void>;

const subscribers = new Map<string, PaymentSubscriber>();

/** Registers a subscriber under a name (registering a name again replaces it); answers its removal. */
export function subscribe(name: string, run: PaymentSubscriber): () => void {
  subscribers.set(name, run);
  return () => {
    if (subscribers.get(name) === run) subscribers.delete(name);
  };
}

/** The names of the subscribers, in the order they run. */
export const subscriberNames = (): string[] => [...subscribers.keys()];

/** After a ledger move: the event to every subscriber, when the move happened now (a replay publishes nothing). */
export async function publish(deps: DonationDeps, t: Transition): Promise<Transition> {
  const payment = t.donation;
  if (!t.changed || !payment) return t;
  log.info('donation status changed', { donationId: payment.id, provider: payment.provider, status: payment.status });
  if (payment.status === 'pending') return t;
  const event: PaymentEvent = {
    type: `payment.${payment.status}` as PaymentEventType,
    purpose: payment.purpose,
    payment,
    receipt: t.receipt ?? null,
    cancelledReceipts: t.cancelledReceipts ?? [],
    reissuedReceipts: t.reissuedReceipts ?? [],
  };
  for (const [name, run] of subscribers) {
    await run(deps, event).catch((e) => log.error('payment subscriber failed', { subscriber: name, donationId: payment.id, error: e instanceof Error ? e.message : String(e) }));
  }
  return t;
}

/**
 * Which campaign a monthly renewal paid at `paidAt` goes to, given its first gift's: decided by the
 * campaigns area, registered by the composition root. Unregistered, a renewal keeps none (a general gift).
 */
type RenewalDesignation = (deps: DonationDeps, campaignId: string | null, paidAt: Date | undefined) => Promise<string | null>;
let renewalDesignation: RenewalDesignation = async () => null;

export function designateRenewalsWith(rule: RenewalDesignation): void {
  renewalDesignation = rule;
}

export const designateRenewal: RenewalDesignation = (deps, campaignId, paidAt) => renewalDesignation(deps, campaignId, paidAt);
