import type Stripe from 'stripe';
import type { PaymentInstrument } from '../status';
import { ProviderError } from './types';

/**
 * What a Stripe payment was made with (ADR 029), asked of Stripe: the PaymentIntent's status, its
 * payment method's type and, for a SEPA direct debit, the account's last four digits and the
 * mandate the donor signed (its reference and when), as Stripe documents them: the charge's
 * `payment_method_details.sepa_debit` names the mandate, GET /v1/mandates/:id gives its
 * `payment_method_details.sepa_debit.reference` and `customer_acceptance.accepted_at`.
 */
export interface StripePayment {
  /** The PaymentIntent's status ('processing' while a debit is on its way). */
  status: string;
  instrument?: PaymentInstrument;
}

/** A Stripe call whose failure is a ProviderError (the balance's reader uses it too). */
export async function ask<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new ProviderError('stripe', e instanceof Error ? e.message : String(e));
  }
}

const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : x?.id);

/** A PaymentIntent's status and instrument. */
export async function paymentOfIntent(stripe: Stripe, id: string): Promise<StripePayment> {
  const pi = await ask(() => stripe.paymentIntents.retrieve(id, { expand: ['latest_charge', 'payment_method'] }));
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const pm = typeof pi.payment_method === 'object' ? pi.payment_method : null;
  const method = charge?.payment_method_details?.type ?? pm?.type;
  if (!method) return { status: pi.status };
  const debit = charge?.payment_method_details?.sepa_debit;
  const mandateId = debit?.mandate;
  const mandate = mandateId ? await ask(() => stripe.mandates.retrieve(mandateId)) : null;
  const acceptedAt = mandate?.customer_acceptance?.accepted_at;
  return {
    status: pi.status,
    instrument: {
      method,
      accountLast4: debit?.last4 ?? pm?.sepa_debit?.last4 ?? null,
      mandateRef: mandate?.payment_method_details?.sepa_debit?.reference ?? null,
      mandateSignedAt: acceptedAt ? new Date(acceptedAt * 1000).toISOString() : null,
    },
  };
}

/**
 * The payment a completed Checkout Session made: its PaymentIntent (one-off), or the one that pays
 * the subscription's first invoice (named by the session; listed by GET /v1/invoice_payments since
 * API version 2025-03-31.basil). Undefined when Stripe names none yet.
 */
export async function paymentOfSession(stripe: Stripe, session: Pick<Stripe.Checkout.Session, 'payment_intent' | 'invoice'>): Promise<StripePayment | undefined> {
  let pi = idOf(session.payment_intent);
  const invoice = idOf(session.invoice);
  if (!pi && invoice) {
    const payments = await ask(() => stripe.invoicePayments.list({ invoice, limit: 1 }));
    pi = payments.data[0]?.payment?.payment_intent ? idOf(payments.data[0].payment.payment_intent) : undefined;
  }
  return pi ? paymentOfIntent(stripe, pi) : undefined;
}
