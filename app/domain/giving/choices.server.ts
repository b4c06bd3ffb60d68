import type { PaymentSettings } from '~/domain/donations/payment-settings.server';
import type { GiftDetails } from '~/domain/donations/ledger.server';
import { formatMoney } from '~/domain/donations/money';
import { designate, getPublicCampaign, listOpenCampaigns, suggestedAmountCents } from '~/domain/campaigns/campaigns.server';
import type { Campaign, ClosedReason } from '~/domain/campaigns/campaigns';
import { coverFeesCents, feePercentOf, readDedication } from '~/domain/campaigns/giving';
import type { Lang, MessageKey } from '~/lib/i18n';
import { db } from '~/lib/runtime.server';

/**
 * The giving rules (ADR 014, ADR 019): the donate form's campaign, fee and dedication options,
 * what its loader shows and what every method records on the attempt. The giving area sits above
 * donations and campaigns (it imports both; neither imports it).
 */
const REASON: Record<ClosedReason | 'unknown', MessageKey> = { draft: 'giving.unknown', unknown: 'giving.unknown', ended: 'giving.closed', notStarted: 'giving.notStarted' };

export interface GivingView {
  campaigns: { slug: string; title: string }[];
  chosen: { slug: string; title: string; amounts: { cents: number; impact: string }[] } | null;
  feePercent: number;
  notice: { key: MessageKey; title: string } | null;
}

export async function givingForPage(settings: PaymentSettings, slug: string, lang: Lang): Promise<GivingView> {
  const open = (await listOpenCampaigns(db(), lang)).filter((c) => c.closed === null);
  const chosen = slug ? open.find((c) => c.slug === slug) : undefined;
  let notice: GivingView['notice'] = null;
  if (slug && !chosen) {
    const d = await designate(db(), slug);
    const c = await getPublicCampaign(db(), slug, lang);
    notice = { key: REASON[d.ok ? 'unknown' : d.reason], title: c?.title ?? '' };
  }
  return {
    campaigns: open.map((c) => ({ slug: c.slug, title: c.title })),
    chosen: chosen ? { slug: chosen.slug, title: chosen.title, amounts: chosen.amounts } : null,
    feePercent: feePercentOf(settings.giving?.feePercent),
    notice,
  };
}

/**
 * A campaign's suggested amounts as the card tab's presets (`campaign:{slug}:{n}`), replacing the
 * general ones. The id names the campaign whose amount was shown, so choosing another campaign in
 * the form afterwards still charges the amount the donor saw.
 */
export function campaignPresets(g: GivingView, lang: Lang): { id: string; name: string; cents: number }[] | null {
  if (!g.chosen || g.chosen.amounts.length === 0) return null;
  const slug = g.chosen.slug;
  return g.chosen.amounts.map((a, i) => ({ id: `campaign:${slug}:${i}`, name: a.impact || formatMoney(a.cents, 'EUR', lang), cents: a.cents }));
}

export const GIVING_FIELDS = ['campaign', 'coverFees', 'dedicationKind', 'dedicationName', 'dedicationMessage', 'dedicationEmail'] as const;
export type GivingValues = Record<(typeof GIVING_FIELDS)[number], string>;

export type GiftChoice = { ok: true; campaign: Campaign | null; details: GiftDetails; coverFees: boolean } | { ok: false; error: MessageKey; vars: Record<string, string> };

/** Reads and checks the designation and dedication a donor chose (the amount comes later: see `withFees`). */
export async function readGift(v: GivingValues, lang: Lang): Promise<GiftChoice> {
  let campaign: Campaign | null = null;
  const slug = v.campaign.trim();
  if (slug) {
    const d = await designate(db(), slug);
    if (!d.ok) {
      const c = await getPublicCampaign(db(), slug, lang);
      return { ok: false, error: REASON[d.reason], vars: { title: c?.title ?? slug } };
    }
    campaign = d.campaign;
  }
  const ded = readDedication({ kind: v.dedicationKind, name: v.dedicationName, message: v.dedicationMessage, email: v.dedicationEmail });
  if (!ded.ok) return { ok: false, error: ded.error, vars: {} };
  return { ok: true, campaign, details: { campaignId: campaign?.id ?? null, dedication: ded.dedication }, coverFees: v.coverFees === 'on' };
}

/** The amount to charge for a gift of `cents`, and the gift details with the fees the donor chose to cover. */
export function withFees(choice: Extract<GiftChoice, { ok: true }>, settings: PaymentSettings, cents: number): { total: number; gift: GiftDetails } {
  const fee = choice.coverFees ? coverFeesCents(cents, feePercentOf(settings.giving?.feePercent)) : 0;
  return { total: cents + fee, gift: { ...choice.details, feeEurCents: fee } };
}

/** A campaign preset (`campaign:{slug}:{n}`) in cents: the amount of the campaign it was shown for; null if none. */
export async function campaignPresetCents(preset: string): Promise<number | null> {
  const m = /^campaign:([a-z0-9-]{1,80}):(\d)$/.exec(preset);
  if (!m) return null;
  return suggestedAmountCents(db(), m[1], Number(m[2]));
}

/**
 * The options a method's own checkout (PayPal buttons, mobile money) carries: the designation only.
 * Those checkouts are opened by the page's script, which posts the campaign and nothing else, so
 * fees and a dedication are not offered there; this is the one place that says so.
 */
export async function designationOf(campaign: string | undefined, lang: Lang): Promise<GiftDetails | { error: MessageKey; vars: Record<string, string> }> {
  const choice = await readGift({ campaign: (campaign ?? '').slice(0, 100), coverFees: '', dedicationKind: '', dedicationName: '', dedicationMessage: '', dedicationEmail: '' }, lang);
  return choice.ok ? choice.details : { error: choice.error, vars: choice.vars };
}
