import type { DB } from '~db/index';
import { getCampaign, renewalCampaignId } from '~/domain/campaigns/campaigns.server';
import { noticeDedication } from '~/domain/campaigns/dedication.server';
import { CampaignPageRefresher, refreshOnGift } from '~/domain/campaigns/refresh.server';
import { designateRenewalsWith, subscribe } from '~/domain/donations/events.server';
import { announceCancelledReceipts, thankForGift } from '~/domain/donations/thanks.server';
import { tellDebitNews } from '~/domain/donations/debits.server';
import { fetchFeesAfter } from '~/domain/donations/fees.server';
import { duesSubscriber } from '~/domain/membership/dues-mail.server';
import { CAMPAIGNS_TAG, DONATE_TAG, campaignTag } from '~/lib/cache-tags';
import { log } from '~/lib/log.server';
import { contentChanged, runtime } from '~/lib/runtime.server';

/**
 * The payment events' subscribers (ADR 019), part of the composition root: server/runtime-hooks.ts
 * registers them as each process prepares; the tests register the same (Vitest setup file).
 */

/** Whether `db` is the database this process's runtime serves (whose pages it caches). */
function servedHere(db: DB): boolean {
  try {
    return runtime().db === db;
  } catch {
    return false;
  }
}

/**
 * The CDN keys of the pages showing these campaigns' totals (ADR 025): each one's page, the lists
 * (home, /campagnes, /nos-actions) and the donate page (a designated gift's form).
 */
export async function campaignKeys(db: DB, campaignIds: string[]): Promise<string[]> {
  const campaigns = await Promise.all(campaignIds.map((id) => getCampaign(db, id)));
  return [...campaigns.flatMap((c) => (c ? [campaignTag(c.slug)] : [])), CAMPAIGNS_TAG, DONATE_TAG];
}

/** Cached pages showing campaign totals are dropped when a designated gift succeeds or is refunded (ADR 014). */
export const campaignPages = new CampaignPageRefresher(async (ids) => contentChanged(await campaignKeys(runtime().db, ids)), 60_000, Date.now, (e) => log.warn('campaign pages not refreshed', { error: e instanceof Error ? e.message : String(e) }));
const refreshCampaignPages = refreshOnGift(campaignPages);

/**
 * What follows a payment (ADR 019), in the order it runs after the ledger's commit: the thank-you
 * mail with its receipt, a direct debit's news to its donor (mandate received, debit failed: ADR
 * 029), the dedication notice, the campaign pages (of the database this process
 * serves), the notice of receipts a refund cancelled, and membership dues (purpose 'dues' only:
 * applied or revoked, the member mailed, ADR 021). And the campaigns' rule for a monthly
 * renewal's designation. Every process registers them (a webhook may reach any worker).
 */
export function registerPaymentSubscribers(): () => void {
  designateRenewalsWith((deps, campaignId, paidAt) => renewalCampaignId(deps.db, campaignId, paidAt));
  const off = [
    subscribe('thank-you mail', thankForGift),
    subscribe('direct debit news', tellDebitNews),
    subscribe('dedication notice', noticeDedication),
    subscribe('campaign pages', async (deps, e) => (servedHere(deps.db) ? refreshCampaignPages(deps, e) : undefined)),
    subscribe('refund notice', announceCancelledReceipts),
    subscribe('membership dues', duesSubscriber),
  ];
  return () => off.forEach((f) => f());
}


/**
 * The providers' fees fetched after a payment succeeded or was refunded, in the background (ADR
 * 033). Registered apart from the subscribers above: the server registers both; the tests of other
 * areas register only those above, so the provider's fake sees no request they did not make.
 */
export function registerFeeFetching(): () => void {
  return subscribe('provider fees', fetchFeesAfter);
}
