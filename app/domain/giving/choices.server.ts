import { activeProducts, availableMethods, type PaymentSettings } from '~/domain/donations/providers/settings.server';
import { parseEuroAmount } from '~/domain/donations/money';
import type { DB } from '~db/index';
import { formatMoney } from '~/lib/currency';
import { designate, getPublicCampaign, listOpenCampaigns, suggestedAmountCents } from '~/domain/campaigns/campaigns.server';
import type { Campaign, ClosedReason } from '~/domain/campaigns/campaigns';
import { feePercentOf } from '~/domain/campaigns/giving';
import type { Lang, MessageKey } from '~/lib/i18n';
import { db } from '~/lib/runtime.server';
import { TAB_METHODS } from './form';

/**
 * The giving rules that need the database (ADR 014, ADR 019): what the donate page's loader shows
 * (campaigns open, their presets, the fee percentage), and whether a designation or a campaign
 * preset holds today (read by startGift, start.server.ts). The giving area sits above donations
 * and campaigns (it imports both; neither imports it).
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

/** A campaign a gift is designated to (by slug, '' for none): it must take gifts today, else the reason with its title. */
export async function designated(db: DB, slug: string, lang: Lang): Promise<{ ok: true; campaign: Campaign | null } | { ok: false; error: MessageKey; vars: Record<string, string> }> {
  if (!slug) return { ok: true, campaign: null };
  const d = await designate(db, slug);
  if (d.ok) return { ok: true, campaign: d.campaign };
  const c = await getPublicCampaign(db, slug, lang);
  return { ok: false, error: REASON[d.reason], vars: { title: c?.title ?? slug } };
}

/** A campaign preset (`campaign:{slug}:{n}`) in cents: the amount of the campaign it was shown for; null if none. */
export async function campaignPresetCents(db: DB, preset: string): Promise<number | null> {
  const m = /^campaign:([a-z0-9-]{1,80}):(\d)$/.exec(preset);
  if (!m) return null;
  return suggestedAmountCents(db, m[1], Number(m[2]));
}

/**
 * The donate page's methods: those enabled and fully configured (availableMethods), in the tabs'
 * order; the one shown (`asked`, the ?m= of the address, when offered, else the first; null when none
 * is); and what the shown one needs of the settings: mobile money's mode and currency (its public
 * key for the checkout), PayPal's client id, and whether the page's payment script is needed.
 */
export function donateMethods(s: PaymentSettings, asked: string | null) {
  const available = availableMethods(s);
  const methods = TAB_METHODS.filter((m) => available[m]);
  const method = methods.find((m) => m === asked) ?? methods[0] ?? null;
  const mm = s.mobileMoney;
  return {
    available,
    methods,
    method,
    mobile: method === 'mobileMoney' ? { mode: mm.integrationType, currency: mm.currency, publicKey: mm.integrationType === 'api' ? mm.publicKey : '' } : null,
    paypalClientId: method === 'paypal' ? s.paypal.clientId : '',
    /** PayPal's buttons and the mobile money checkout run in the page's script. */
    needsScript: method === 'paypal' || (method === 'mobileMoney' && mm.integrationType === 'api'),
  };
}

/** The card tab's presets: the chosen campaign's suggested amounts, else the active Stripe products with a valid amount. */
export function cardPresets(g: GivingView, s: PaymentSettings, lang: Lang): { id: string; name: string; cents: number }[] {
  return campaignPresets(g, lang) ?? activeProducts(s).flatMap((p) => {
    const a = parseEuroAmount(p.amount);
    return a.ok ? [{ id: p.id, name: p.name, cents: a.cents }] : [];
  });
}
