import type { Actor } from '~/domain/audit/audit.server';
import { log } from '~/lib/log.server';
import type { DonationDeps } from './context.server';
import { applyDispute } from './disputes.server';
import { designateRenewal, publish } from './events.server';
import { createAttempt, findById, findByRef, pendingAttempts, recordOffline, recordSucceeded, setProviderRef, setSecondaryRef, transition, voidOffline, type Donation, type OfflinePayment, type Transition } from './ledger.server';
import type { PaymentRequest, Started, WebhookNotice } from './providers/provider';
import { providerOf, providerOfRow } from './providers/registry.server';
import { ProviderBusy, type VerifiedPayment } from './providers/types';
import type { ProviderName } from './status';

/**
 * Starting, settling and re-checking a payment, once for every provider (ADR 019): the provider
 * is reached through its PaymentProvider (providers/registry.server.ts), the status is changed by
 * the ledger only, and what follows a change is published as an event (events.server.ts).
 */

/**
 * Records the attempt (pending), then asks the provider to start it and keeps the reference it
 * gives; a provider that fails leaves the attempt failed with the reason (published like every
 * move), and the error goes up. Above the provider's pace (`startsPerSecond`, kept by
 * `deps.pace`), a ProviderBusy is thrown before anything is recorded.
 */
export async function startPayment(deps: DonationDeps, name: ProviderName, r: PaymentRequest): Promise<{ donation: Donation } & Started> {
  const provider = providerOf(name);
  // Above the provider's pace nothing is recorded: the payer is asked to try again in a second.
  if (deps.pace && provider.start && provider.startsPerSecond && !deps.pace.take(name, provider.startsPerSecond)) throw new ProviderBusy(name, 'trop de paiements commencés cette seconde');
  const plan = provider.plan(deps, r);
  const donation = await createAttempt(deps.db, {
    provider: name,
    purpose: r.purpose,
    amountMinor: plan.amountMinor,
    currency: plan.currency,
    eurCents: plan.eurCents,
    providerRef: plan.providerRef,
    callbackTokenHash: plan.callbackTokenHash,
    verifiable: plan.verifiable,
    donorName: plan.donorName ?? r.donorName,
    donorEmail: plan.donorEmail ?? r.donorEmail ?? null,
    frequency: r.monthly ? 'monthly' : 'once',
    language: r.lang,
    taxDetails: r.taxDetails,
    gift: r.gift,
    newsletter: r.newsletter,
  });
  if (!provider.start) return { donation, url: plan.url };
  try {
    const started = await provider.start(deps, donation, r, plan);
    if (started.ref) await setProviderRef(deps.db, donation.id, started.ref);
    return { ...started, donation: { ...donation, provider_ref: started.ref ?? donation.provider_ref } };
  } catch (e) {
    await publish(deps, await transition(deps.db, { id: donation.id }, 'failed', { error: e instanceof Error ? e.message.slice(0, 300) : String(e) }, deps.receipts));
    throw e;
  }
}

/**
 * Money an Admin received by hand (cash, cheque, transfer): the ledger records it succeeded on the
 * Admin's act, with `link` (the purpose's own record) in its transaction, and the success is
 * published like a provider's verified one, so every purpose's subscribers act on it the same way.
 */
export async function recordOfflinePayment(deps: DonationDeps, actor: Actor, a: OfflinePayment, link: (trx: DonationDeps['db'], d: Donation) => Promise<void>): Promise<Transition> {
  return publish(deps, await recordOffline(deps.db, actor, a, link, deps.receipts));
}

/** An Admin takes back a payment they recorded by hand (the ledger's `voidOffline`); the cancellation is published. */
export async function voidOfflinePayment(deps: DonationDeps, actor: Actor, id: string, reason: string): Promise<Transition> {
  return publish(deps, await voidOffline(deps.db, actor, id, reason, deps.receipts));
}

/**
 * Applies what a provider verifiably said about one attempt. Success counts only when the amount
 * and currency are exactly those of the attempt; otherwise the attempt fails with the reason.
 */
export async function settle(deps: DonationDeps, provider: ProviderName, p: VerifiedPayment, known?: Donation): Promise<Transition> {
  const donation = known ?? (await findByRef(deps.db, provider, p.ref));
  if (!donation) return { changed: false };
  if (!p.status) {
    if (p.secondaryRef && !donation.secondary_ref) await setSecondaryRef(deps.db, donation.id, p.secondaryRef);
    return { changed: false };
  }
  // The designation is the one stored on our row at attempt creation; a provider's metadata that
  // names another campaign (a tampered or mixed-up callback) changes nothing and is logged.
  if (p.designation !== undefined && (p.designation || null) !== (donation.campaign_id || null)) {
    log.warn('payment designation does not match its attempt', { donationId: donation.id, provider, expected: donation.campaign_id, got: p.designation });
  }
  const extra = { donorName: p.donorName, donorEmail: p.donorEmail, secondaryRef: p.secondaryRef, instrument: p.instrument };
  if (p.status === 'succeeded' && (p.amountMinor !== donation.amount_minor || p.currency !== donation.currency)) {
    log.warn('payment does not match its attempt', { donationId: donation.id, expected: `${donation.amount_minor} ${donation.currency}`, got: `${p.amountMinor} ${p.currency}` });
    return publish(deps, await transition(deps.db, { id: donation.id }, 'failed', { ...extra, error: `Montant ou devise inattendus : ${p.amountMinor ?? '?'} ${p.currency ?? '?'}` }, deps.receipts));
  }
  return publish(deps, await transition(deps.db, { id: donation.id }, p.status, extra, deps.receipts));
}

/** Moves a payment the provider's word decided (a refund, an abandoned attempt closed), and publishes the move. */
export async function move(deps: DonationDeps, id: string, to: 'refunded' | 'cancelled'): Promise<Transition> {
  return publish(deps, await transition(deps.db, { id }, to, {}, deps.receipts));
}

async function apply(deps: DonationDeps, name: ProviderName, n: WebhookNotice): Promise<void> {
  if (n.kind === 'verified') await settle(deps, name, n.payment, n.donation);
  else if (n.kind === 'refunded') await move(deps, n.donation.id, 'refunded');
  else if (n.kind === 'disputed') await applyDispute(deps, n.donation, n.dispute);
  else if (n.kind === 'renewed') {
    // The campaign of the first gift, if it still takes gifts on the day this one was paid; after that, a general gift.
    const campaignId = await designateRenewal(deps, n.first.campaign_id, n.paidAt);
    await publish(deps, await recordSucceeded(deps.db, { ...n.attempt, gift: { ...n.attempt.gift, campaignId } }, deps.receipts));
  } else await providerOf(name).subscriptions?.onWebhook(deps, n);
}

export type WebhookOutcome = { status: 200 | 400 | 404; message: string };

/**
 * POST /webhooks/{provider}, raw body in hand: the provider the address names reads and
 * authenticates it, the ledger applies it. An address that names no provider with webhooks: 404.
 */
export async function handleWebhook(deps: DonationDeps, name: string, rawBody: string, headers: Headers): Promise<WebhookOutcome> {
  const provider = providerOfRow(name);
  if (!provider?.parseWebhook) return { status: 404, message: 'no such webhook' };
  const answer = await provider.parseWebhook(deps, rawBody, headers);
  for (const n of answer.notices ?? []) await apply(deps, provider.name, n);
  return { status: answer.status, message: answer.message };
}

/**
 * Re-asks the provider about one attempt (a periodic re-check, a payer's return): its `verify`,
 * which acts on a payer's approval where the provider needs it (PayPal); a provider that cannot be
 * asked changes nothing.
 */
export async function recheck(deps: DonationDeps, donation: Donation): Promise<void> {
  const provider = providerOfRow(donation.provider);
  const p = await provider?.verify?.(deps, donation);
  if (p && provider) await settle(deps, provider.name, p, donation);
}

/** How long an unfinished attempt keeps being re-checked (abandoned checkouts stop being asked about). */
export const RECHECK_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Every pending attempt older than a minute (and younger than a week), re-checked; a provider that
 * is down is retried next time. An attempt still pending at the end of its week is asked about one
 * last time and, still unpaid, closed as cancelled ("Annulé"): a checkout the donor abandoned (a
 * PayPal order never approved, a mobile-money prompt never answered) no longer stays "En attente"
 * in the lists and reports for ever. A payment verified later still counts (cancelled → succeeded).
 * Answers the number of attempts the provider answered about.
 */
export async function recheckPending(deps: DonationDeps, now = new Date(), minAgeMs = 60_000): Promise<number> {
  const olderThan = new Date(now.getTime() - minAgeMs).toISOString();
  const windowStart = new Date(now.getTime() - RECHECK_WINDOW_MS).toISOString();
  let n = 0;
  const ask = async (d: Donation): Promise<boolean> => {
    try {
      await recheck(deps, d);
      n += 1;
      return true;
    } catch (e) {
      log.warn('pending donation re-check failed', { donationId: d.id, provider: d.provider, error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  };
  for (const d of await pendingAttempts(deps.db, olderThan, windowStart)) await ask(d);
  // The last question, for attempts past their week. Only the provider's answer closes one (a
  // status changes only on verified provider data, DEPARTURES): one that does not answer (down, or
  // no longer knowing an expired order) is asked again at each run for one more week, then left
  // pending and no longer asked.
  const lastAskedAfter = new Date(now.getTime() - 2 * RECHECK_WINDOW_MS).toISOString();
  for (const d of await pendingAttempts(deps.db, windowStart, lastAskedAfter)) {
    if (!(await ask(d))) continue;
    const { changed } = await move(deps, d.id, 'cancelled');
    if (changed) log.info('abandoned payment attempt closed', { donationId: d.id, provider: d.provider });
  }
  return n;
}

/**
 * /payment/cancel?d=…: the payer came back without paying. A pending attempt at a provider whose
 * return closes it (Stripe, CoinGate) becomes cancelled (a later verified payment still counts).
 * Any other provider's payment is settled by that provider only (Flutterwave, PayPal: the webhook
 * or a re-check of our own reference): the page changes nothing, and says of a payment still
 * pending that it is not confirmed (#12).
 */
export async function cancelAttempt(deps: DonationDeps, id: string): Promise<'cancelled' | 'unconfirmed'> {
  const donation = /^[0-9a-f-]{36}$/.test(id) ? await findById(deps.db, id) : undefined;
  if (!donation) return 'cancelled';
  if (!providerOfRow(donation.provider)?.cancelledOnReturn) return donation.status === 'pending' ? 'unconfirmed' : 'cancelled';
  await publish(deps, await transition(deps.db, { id }, 'cancelled', {}, deps.receipts));
  return 'cancelled';
}
