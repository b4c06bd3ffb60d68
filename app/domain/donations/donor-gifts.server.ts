import type { Actor } from '~/domain/audit/audit.server';
import type { DonationDeps } from './context.server';
import { langOf, spaceUrl } from './donor-mail.server';
import type { Donation } from './ledger.server';
import { parseEuroAmount } from './money';
import { MONTHLY_MAX_CENTS, MONTHLY_MIN_CENTS, recordChange, recordPaymentUpdate, type GiftChange, type GiftSource, type MonthlyGift, type giftOfDonor } from './monthly.server';
import { subscriptionsOf } from './providers/registry.server';
import type { SubscriptionCapability } from './providers/provider';
import { ProviderError, returnOrigin } from './providers/types';

type Target = { gift: MonthlyGift; first: Donation };
type By = { source: GiftSource; actor: Actor };

/** The capability of the provider that charges the gift; a ProviderError when it has none (it cannot be changed here). */
function subscriptionsFor(first: Donation): SubscriptionCapability {
  const subs = subscriptionsOf(first);
  if (!subs) throw new ProviderError(first.provider, 'dons mensuels non gérés par ce prestataire');
  return subs;
}

/**
 * Asks the gift's provider for the change (the provider checks that its answer shows it), then
 * records it and mails the donor. An amount outside the monthly bounds is a RangeError before the
 * provider is asked; a provider's refusal, silence or other answer, a ProviderError.
 */
export async function changeGift(deps: DonationDeps, target: Target, change: GiftChange, by: By): Promise<MonthlyGift> {
  const { gift, first } = target;
  if (gift.status === 'ended') throw new ProviderError(first.provider, 'ce don mensuel est déjà arrêté');
  const subs = subscriptionsFor(first);
  if (change.kind === 'amount' && (!Number.isInteger(change.amountMinor) || change.amountMinor < MONTHLY_MIN_CENTS || change.amountMinor > MONTHLY_MAX_CENTS)) throw new RangeError('amount');
  const state = await subs.change(deps, gift.id, change);
  return recordChange(deps, target, change, state, by);
}

/** The provider's page where the donor updates their card (back to their space), recorded; its address. */
export async function cardUpdateUrl(deps: DonationDeps, target: Target, by: By): Promise<string> {
  const { gift, first } = target;
  const lang = langOf(first.language);
  const url = await subscriptionsFor(first).paymentUpdateUrl(deps, gift.id, spaceUrl(returnOrigin(deps.publicUrl, first.provider), lang), lang);
  await recordPaymentUpdate(deps.db, gift, by);
  return url;
}

/**
 * What a donor may do to their own monthly gift from their space (ADR 013), by the intent its form
 * posts: change the amount, pause, resume, stop (changeGift), or update the card (cardUpdateUrl).
 * The donor space's route reads the form and answers; the rules are here.
 */
const DONOR_CHANGES = { amount: 'amount', pause: 'paused', resume: 'resumed', stop: 'stopped' } as const satisfies Record<string, GiftChange['kind']>;

export type DonorGiftIntent = keyof typeof DONOR_CHANGES | 'card';

/** Whether a posted intent is one a donor may ask of a monthly gift. */
export const isDonorGiftIntent = (intent: string): intent is DonorGiftIntent => intent === 'card' || Object.hasOwn(DONOR_CHANGES, intent);

/** A new monthly amount as typed ("20", "20,50"), in cents within the monthly bounds; null if refused. */
export function monthlyAmountCents(typed: string): number | null {
  const parsed = parseEuroAmount(typed);
  return parsed.ok && parsed.cents >= MONTHLY_MIN_CENTS && parsed.cents <= MONTHLY_MAX_CENTS ? parsed.cents : null;
}

export type DonorGiftOutcome =
  | { ok: true; kind: 'card'; url: string }
  | { ok: true; kind: GiftChange['kind']; gift: MonthlyGift }
  | { ok: false; error: 'invalidAmount' }
  | { ok: false; error: 'provider'; message: string };

/**
 * Does what the intent asks of the donor's gift (found by giftOfDonor): the card's portal address,
 * or the change made at Stripe and recorded. An amount outside the monthly bounds is refused before
 * Stripe is asked; Stripe's refusal comes back as 'provider' (any other error is thrown).
 */
export async function applyDonorGiftIntent(
  deps: DonationDeps,
  target: NonNullable<Awaited<ReturnType<typeof giftOfDonor>>>,
  intent: DonorGiftIntent,
  typedAmount: string,
  actor: Actor,
): Promise<DonorGiftOutcome> {
  const by = { source: 'donor' as const, actor };
  try {
    if (intent === 'card') return { ok: true, kind: 'card', url: await cardUpdateUrl(deps, target, by) };
    const kind = DONOR_CHANGES[intent];
    if (kind === 'amount') {
      const cents = monthlyAmountCents(typedAmount);
      if (cents === null) return { ok: false, error: 'invalidAmount' };
      return { ok: true, kind, gift: await changeGift(deps, target, { kind, amountMinor: cents }, by) };
    }
    return { ok: true, kind, gift: await changeGift(deps, target, { kind }, by) };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    return { ok: false, error: 'provider', message: e.message };
  }
}
