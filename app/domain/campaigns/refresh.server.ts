import type { PaymentEvent } from '~/domain/donations/events.server';
import { dateTimeFormat } from '~/lib/intl';

/**
 * When a gift to a campaign succeeds or is refunded, the cached public pages that show its total
 * must be dropped (ADR 014). A refund drops them at once (a total is never wrong after a refund);
 * successes drop them at most once per `windowMs`: the first at once, later ones at the end of the
 * window, so a busy campaign's pages stay cached and are at most a minute stale. `invalidate` is
 * given the campaigns whose totals moved since the last refresh (ADR 025: their pages' CDN keys).
 */
export class CampaignPageRefresher {
  private last = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private moved = new Set<string>();

  constructor(
    private readonly invalidate: (campaignIds: string[]) => Promise<void>,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /** A designated gift changed status. */
  async giftChanged(kind: 'succeeded' | 'refunded', campaignId?: string | null): Promise<void> {
    if (campaignId) this.moved.add(campaignId);
    const elapsed = this.now() - this.last;
    if (kind === 'refunded' || elapsed >= this.windowMs) {
      await this.run();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.run().catch(this.onError);
    }, this.windowMs - elapsed);
    // Stryker disable next-line OptionalChaining: Node's timers have unref (the ?. is for other runtimes' timer ids)
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.last = this.now();
    const ids = [...this.moved];
    this.moved.clear();
    await this.invalidate(ids);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Milliseconds until the next midnight in Paris (the foundation's day, as `today()`), plus a
 * second: campaign pages show days left and close after their end date, so the cache is dropped
 * when the day changes. On a daylight-saving day this may be an hour late, never early.
 */
export function msUntilParisMidnight(now = new Date()): number {
  const parts = Object.fromEntries(
    dateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const elapsed = ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + now.getUTCMilliseconds();
  return 86_400_000 - elapsed + 1000;
}

/**
 * The subscriber: a gift designated to a campaign that succeeded or was refunded changes its
 * totals (ADR 019); a payment of another purpose (dues) counts in no campaign.
 */
export function refreshOnGift(pages: Pick<CampaignPageRefresher, 'giftChanged'>): (deps: unknown, e: PaymentEvent) => Promise<void> {
  return async (_deps, e) => {
    if (e.purpose !== 'gift' || !e.payment.campaign_id) return;
    if (e.type === 'payment.succeeded') await pages.giftChanged('succeeded', e.payment.campaign_id);
    else if (e.type === 'payment.refunded') await pages.giftChanged('refunded', e.payment.campaign_id);
  };
}
