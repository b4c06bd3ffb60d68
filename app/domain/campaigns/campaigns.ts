import type { Lang } from '~/lib/i18n';

/**
 * Fundraising campaigns (ADR 014): shared with the browser, no server imports here.
 * Statuses are stored as codes; the back office shows them in French.
 */
export const CAMPAIGN_STATUSES = ['draft', 'active', 'ended'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = { draft: 'Brouillon', active: 'Active', ended: 'Terminée' };

/** Suggested amounts a campaign may offer on the donate form. */
export const MAX_SUGGESTED_AMOUNTS = 4;

export interface CampaignTranslation {
  title: string;
  summary: string;
  story: string;
}

export interface SuggestedAmount {
  cents: number;
  /** "25 € = un kit scolaire", per language. */
  impact: Record<Lang, string>;
}

export interface Campaign {
  id: string;
  slug: string;
  status: CampaignStatus;
  image: string;
  goalCents: number | null;
  startsOn: string | null;
  endsOn: string | null;
  projectId: string | null;
  translations: Record<Lang, CampaignTranslation>;
  amounts: SuggestedAmount[];
  version: number;
}

/** A campaign's editable fields: what a form, a draft and a revision hold. */
export type CampaignInput = Omit<Campaign, 'id' | 'version'>;

/** Succeeded gifts designated to a campaign, in euro cents, without refunded ones and without fees covered. */
export interface CampaignTotals {
  raisedCents: number;
  donors: number;
}

/** Why a campaign takes no designated gift today (null: it does). */
export type ClosedReason = 'draft' | 'ended' | 'notStarted';

/**
 * Whether a campaign accepts designated gifts on `today` (YYYY-MM-DD, Paris): active, started,
 * and not past its end date (the end date itself still counts).
 */
export function closedReason(c: Pick<Campaign, 'status' | 'startsOn' | 'endsOn'>, today: string): ClosedReason | null {
  if (c.status === 'draft') return 'draft';
  if (c.status === 'ended') return 'ended';
  if (c.endsOn && today > c.endsOn) return 'ended';
  if (c.startsOn && today < c.startsOn) return 'notStarted';
  return null;
}

/** Whole days from `today` to the end date, the end day included (0 once it is past); null without an end date. */
export function daysLeft(endsOn: string | null, today: string): number | null {
  if (!endsOn) return null;
  const ms = Date.parse(`${endsOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`);
  return Math.max(0, Math.round(ms / 86_400_000) + 1);
}

/** Progress towards the goal, 0–100 (whole percent, capped) for the bar; null without a goal. */
export function progressPercent(raisedCents: number, goalCents: number | null): number | null {
  if (!goalCents || goalCents <= 0) return null;
  return Math.min(100, Math.floor((raisedCents * 100) / goalCents));
}

/** A URL path segment from a title: lowercase ASCII words joined by hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
