import { log } from '~/lib/log.server';
import type { DonationDeps } from './context.server';
import { providerFor, type Means } from '~/domain/means/means';
import { findById, findByRef, providerNamed, type Donation } from './ledger.server';
import { recheck, settle } from './payments.server';
import type { PaymentProvider, ReturnQuery } from './providers/provider';
import { allProviders, providerOfRow } from './providers/registry.server';
import { ProviderError } from './providers/types';

/**
 * The one road back from a provider (issue 39): every page a payer returns to — the gifts'
 * /payment/success, the dues' /devenir-membre/merci, the mobile-money checkout's callback — asks
 * this, never a provider by name, and never believes the query string. Each provider reads its own
 * words in the query (`readReturn`: Stripe's session id, Flutterwave's tx_ref and transaction id);
 * our own id (`d`) names the attempt otherwise. The payment is then confirmed with its provider:
 * a payment the return names is verified as exactly this attempt's (`verifyReturn`), an attempt
 * still open is asked about once more (`recheck`: PayPal's approved order is captured there), and
 * the ledger moves it, publishing the move.
 */
export interface PayerReturn {
  /** The attempt as the ledger holds it after asking; undefined when the return names none of ours. */
  payment: Donation | undefined;
  /** The payer says they closed the provider's page (a hosted checkout's `status=cancelled`). */
  cancelled: boolean;
  /** The provider could not be asked (down, or not configured): the payment is as it was, not confirmed. */
  unconfirmed?: ProviderError;
}

const OUR_ID = /^[0-9a-f-]{36}$/;
const OPEN = new Set(['pending', 'cancelled']);

function namedByProvider(query: URLSearchParams): { provider: PaymentProvider; said: ReturnQuery } | undefined {
  for (const provider of allProviders()) {
    const said = provider.readReturn?.(query);
    if (said) return { provider, said };
  }
  return undefined;
}

async function confirm(deps: DonationDeps, payment: Donation, said: ReturnQuery | undefined): Promise<void> {
  const provider = providerOfRow(payment.provider);
  if (said?.proof && provider?.verifyReturn) {
    const p = await provider.verifyReturn(deps, payment, said.proof);
    if (p) await settle(deps, provider.name, p, payment);
    return;
  }
  if (OPEN.has(payment.status) && providerNamed(payment)) await recheck(deps, payment);
}

/** A payer's return: the payment its address names, as its provider says now. */
export async function payerReturn(deps: DonationDeps, query: URLSearchParams): Promise<PayerReturn> {
  const named = namedByProvider(query);
  const id = query.get('d') ?? '';
  const found = (named && (await findByRef(deps.db, named.provider.name, named.said.ref))) || (OUR_ID.test(id) ? await findById(deps.db, id) : undefined);
  const cancelled = named?.said.cancelled === true;
  if (!found) return { payment: undefined, cancelled };
  // A reference and an id that name two different attempts: only our id is trusted to name it, and nothing the provider's words say is used.
  const said = named && named.provider.name === found.provider && named.said.ref === found.provider_ref ? named.said : undefined;
  try {
    await confirm(deps, found, said);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.warn('payer return could not be confirmed', { donationId: found.id, provider: e.provider, error: e.message });
    return { payment: (await findById(deps.db, found.id)) ?? found, cancelled, unconfirmed: e };
  }
  return { payment: (await findById(deps.db, found.id)) ?? found, cancelled };
}

/**
 * A payer's approval given in our page (a means whose provider's buttons open there: PayPal's
 * onApprove), naming the provider's reference of the attempt: confirmed like any return (the
 * provider's `verify` acts on the approval: PayPal captures the order), the payment as it stands
 * after; undefined when the reference is none of ours. A provider's refusal or silence is thrown
 * (ProviderError): the buttons say so and the payment stays open for another try.
 */
export async function approvedInPage(deps: DonationDeps, means: Means, ref: string): Promise<Donation | undefined> {
  const name = providerFor(means);
  const found = name ? await findByRef(deps.db, name, ref) : undefined;
  if (!found) return undefined;
  await confirm(deps, found, undefined);
  return findById(deps.db, found.id);
}
