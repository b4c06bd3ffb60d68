import type { Actor } from '~/domain/audit/audit.server';
import type { DonationDeps } from './context.server';
import { parseEuroAmount } from './money';
import { MONTHLY_MAX_CENTS, MONTHLY_MIN_CENTS, cardUpdateUrl, changeGift, type GiftChange, type MonthlyGift, type giftOfDonor } from './monthly.server';
import { ProviderError } from './providers/types';

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
