import { sql, type Selectable } from 'kysely';
import type { DB } from '~db/index';
import { isUniqueViolation } from '~db/helpers';
import type { CampaignTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { today, type Paged } from '~/domain/content/forms';
import { contains, newId, pageOf, updateVersioned } from '~/domain/content/store.server';
import { LANGS, localized, type Lang } from '~/lib/i18n';
import { sanitizeRichHtml } from '~/lib/sanitize.server';
import type { Snapshot } from '~/domain/revisions/editorial';
import { deleteHistory, recordBaseline, recordRevision } from '~/domain/revisions/revisions.server';
import { closedReason, slugify, type Campaign, type CampaignInput, type CampaignStatus, type CampaignTotals, type CampaignTranslation, type ClosedReason, type SuggestedAmount } from './campaigns';

export function toCampaign(row: Selectable<CampaignTable>): Campaign {
  return {
    id: row.id,
    slug: row.slug,
    status: row.status as CampaignStatus,
    image: row.image,
    goalCents: row.goal_cents === null ? null : Number(row.goal_cents),
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    projectId: row.project_id,
    translations: JSON.parse(row.translations),
    amounts: JSON.parse(row.amounts),
    version: row.version,
  };
}

export function campaignLabel(c: Pick<Campaign, 'translations' | 'slug'>): string {
  return c.translations.fr?.title || c.slug;
}

// ---- Totals ------------------------------------------------------------------------------------

/**
 * Raised amount and donors of campaigns, by one SQL aggregation over the ledger: succeeded gifts
 * only (a refunded gift is no longer 'succeeded'), valued in euros (CFA francs were converted at
 * the legal parity when the attempt was recorded), without the part added to cover fees.
 * Donors are counted once per email address (a gift without one counts as one donor).
 */
export async function campaignTotals(db: DB, ids: string[]): Promise<Map<string, CampaignTotals>> {
  const out = new Map<string, CampaignTotals>(ids.map((id) => [id, { raisedCents: 0, donors: 0 }]));
  // Stryker disable next-line ConditionalExpression: with no id the query is `IN ()`, empty on SQLite (where mutation runs); PostgreSQL refuses it
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('donations')
    .select([
      'campaign_id',
      sql<string>`coalesce(sum(coalesce(eur_cents, 0) - fee_eur_cents), 0)`.as('raised'),
      sql<string>`count(distinct coalesce(lower(donor_email), id))`.as('donors'),
    ])
    .where('status', '=', 'succeeded')
    .where('campaign_id', 'in', ids)
    .groupBy('campaign_id')
    .execute();
  for (const r of rows) if (r.campaign_id) out.set(r.campaign_id, { raisedCents: Number(r.raised), donors: Number(r.donors) });
  return out;
}

// ---- Public ------------------------------------------------------------------------------------

export interface PublicCampaign {
  id: string;
  slug: string;
  status: CampaignStatus;
  image: string;
  title: string;
  summary: string;
  story: string;
  goalCents: number | null;
  startsOn: string | null;
  endsOn: string | null;
  projectId: string | null;
  amounts: { cents: number; impact: string }[];
  raisedCents: number;
  donors: number;
  closed: ClosedReason | null;
}

function localize(c: Campaign, lang: Lang, totals: CampaignTotals, day: string): PublicCampaign {
  return {
    id: c.id,
    slug: c.slug,
    status: c.status,
    image: c.image,
    title: localized(c.translations, lang, 'title'),
    summary: localized(c.translations, lang, 'summary'),
    story: sanitizeRichHtml(localized(c.translations, lang, 'story')),
    goalCents: c.goalCents,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    projectId: c.projectId,
    amounts: c.amounts.map((a) => ({ cents: a.cents, impact: a.impact[lang] || a.impact.fr || '' })),
    raisedCents: totals.raisedCents,
    donors: totals.donors,
    closed: closedReason(c, day),
  };
}

/** Campaigns as visitors see them, in `lang`, with their raised amounts and donors. */
export async function withTotals(db: DB, campaigns: Campaign[], lang: Lang, day: string): Promise<PublicCampaign[]> {
  const totals = await campaignTotals(db, campaigns.map((c) => c.id));
  return campaigns.map((c) => localize(c, lang, totals.get(c.id)!, day));
}

/** Campaigns open to gifts today, newest first (what /campagnes lists). */
export async function listOpenCampaigns(db: DB, lang: Lang, opts: { limit?: number; day?: string } = {}): Promise<PublicCampaign[]> {
  const day = opts.day ?? today();
  const rows = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('ends_on', 'is', null), eb('ends_on', '>=', day)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .$if(Boolean(opts.limit), (q) => q.limit(opts.limit!))
    .execute();
  return withTotals(db, rows.map(toCampaign), lang, day);
}

/** A campaign's public page: any campaign but a draft (an ended one says so and takes no gift). */
export async function getPublicCampaign(db: DB, slug: string, lang: Lang, day = today()): Promise<PublicCampaign | undefined> {
  const row = await db.selectFrom('campaigns').selectAll().where('slug', '=', slug).where('status', '!=', 'draft').executeTakeFirst();
  if (!row) return undefined;
  return (await withTotals(db, [toCampaign(row)], lang, day))[0];
}

/** The id of the campaign at this address, whatever its status (a preview may show a draft). */
export async function campaignIdAt(db: DB, slug: string): Promise<string | undefined> {
  return (await db.selectFrom('campaigns').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
}

/** Published (not draft) campaign slugs, for the sitemap. */
export async function listPublishedCampaignSlugs(db: DB): Promise<{ slug: string; updated_at: string }[]> {
  return db.selectFrom('campaigns').select(['slug', 'updated_at']).where('status', '!=', 'draft').orderBy('created_at', 'desc').execute();
}

// ---- Designated gifts --------------------------------------------------------------------------

export type Designation = { ok: true; campaign: Campaign } | { ok: false; reason: ClosedReason | 'unknown' };

/**
 * The campaign a gift is designated to, checked when the attempt is created: it must exist, be
 * active, started and not past its end date. Donations call this; the id it gives is what the
 * ledger stores (a provider's callback never changes it).
 */
export async function designate(db: DB, slug: string, day = today()): Promise<Designation> {
  const row = slug ? await db.selectFrom('campaigns').selectAll().where('slug', '=', slug).executeTakeFirst() : undefined;
  if (!row) return { ok: false, reason: 'unknown' };
  const campaign = toCampaign(row);
  const reason = closedReason(campaign, day);
  return reason ? { ok: false, reason } : { ok: true, campaign };
}

/**
 * The campaign a monthly gift's renewal paid at `paidAt` counts for (ADR 014): the first gift's
 * while that campaign takes gifts on that day (Paris); once it has ended (or is no longer open:
 * back to draft, deleted), none — the renewal is a general gift.
 */
export async function renewalCampaignId(db: DB, campaignId: string | null, paidAt = new Date()): Promise<string | null> {
  if (!campaignId) return null;
  const row = await db.selectFrom('campaigns').select(['status', 'starts_on', 'ends_on']).where('id', '=', campaignId).executeTakeFirst();
  const open = row && closedReason({ status: row.status as CampaignStatus, startsOn: row.starts_on, endsOn: row.ends_on }, today(paidAt)) === null;
  return open ? campaignId : null;
}

/** The `index`-th suggested amount of a campaign, in cents (what the donate form showed for it); null if none. */
export async function suggestedAmountCents(db: DB, slug: string, index: number): Promise<number | null> {
  const row = await db.selectFrom('campaigns').select('amounts').where('slug', '=', slug).executeTakeFirst();
  if (!row) return null;
  const amounts: SuggestedAmount[] = JSON.parse(row.amounts);
  return amounts[index]?.cents ?? null;
}

/** Campaigns by id (the donations screen shows and filters by them). */
export async function campaignChoices(db: DB): Promise<{ id: string; slug: string; title: string; status: CampaignStatus }[]> {
  const rows = await db.selectFrom('campaigns').select(['id', 'slug', 'translations', 'status']).orderBy('created_at', 'desc').execute();
  return rows.map((r) => ({ id: r.id, slug: r.slug, title: JSON.parse(r.translations).fr?.title || r.slug, status: r.status as CampaignStatus }));
}

// ---- Back office -------------------------------------------------------------------------------

export type { CampaignInput };

export const CAMPAIGN_TYPE = 'campaign';

/** A campaign's editable fields as the editorial workflow keeps them (revisions, ADR 015). */
export function campaignSnapshot(c: Campaign): Snapshot {
  const input: CampaignInput = {
    slug: c.slug,
    status: c.status,
    image: c.image,
    goalCents: c.goalCents,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    projectId: c.projectId,
    translations: c.translations,
    amounts: c.amounts,
  };
  return { ...input };
}

export function clean(input: CampaignInput) {
  const translations = Object.fromEntries(
    LANGS.map((lang) => {
      const t: Partial<CampaignTranslation> = input.translations[lang] ?? {};
      return [lang, { title: (t.title ?? '').trim(), summary: (t.summary ?? '').trim(), story: sanitizeRichHtml(t.story ?? '') }];
    }),
  );
  const amounts: SuggestedAmount[] = input.amounts.map((a) => ({ cents: a.cents, impact: Object.fromEntries(LANGS.map((l) => [l, (a.impact[l] ?? '').trim()])) as Record<Lang, string> }));
  return {
    slug: input.slug || slugify(input.translations.fr?.title ?? '') || newId(),
    status: input.status,
    image: input.image,
    goal_cents: input.goalCents,
    starts_on: input.startsOn,
    ends_on: input.endsOn,
    project_id: input.projectId,
    translations: JSON.stringify(translations),
    amounts: JSON.stringify(amounts),
  };
}

export async function listCampaignsPage(db: DB, { q, page }: { q: string; page: number }): Promise<Paged<Campaign & { totals: CampaignTotals }>> {
  const base = db.selectFrom('campaigns').$if(q !== '', (qb) => qb.where((eb) => eb.or([contains('slug', q), contains('translations', q)])));
  return pageOf(
    page,
    q,
    async () => (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    async (limit, offset) => {
      const rows = (await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toCampaign);
      const totals = await campaignTotals(db, rows.map((c) => c.id));
      return rows.map((c) => ({ ...c, totals: totals.get(c.id)! }));
    },
  );
}

export async function getCampaign(db: DB, id: string): Promise<Campaign | undefined> {
  const row = await db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toCampaign(row) : undefined;
}

export type SaveResult = { campaign: Campaign } | { error: 'notFound' | 'conflict' | 'slugTaken' | 'unknownProject' };

/**
 * What would refuse this campaign's save (or the publication of this draft): its address taken by
 * another campaign, or a linked project that no longer exists. Null when it may be written.
 */
export async function campaignProblem(db: DB, id: string | null, input: CampaignInput): Promise<'slugTaken' | 'unknownProject' | null> {
  const values = clean(input);
  const taken = await db.selectFrom('campaigns').select('id').where('slug', '=', values.slug).$if(id !== null, (q) => q.where('id', '!=', id!)).executeTakeFirst();
  if (taken) return 'slugTaken';
  if (values.project_id && !(await db.selectFrom('projects').select('id').where('id', '=', values.project_id).executeTakeFirst())) return 'unknownProject';
  return null;
}

/**
 * The one save path of a campaign (create when `id` is null, else update at `version`): checks
 * the address is free and the project exists, writes, audits, all in one transaction.
 */
export async function saveCampaign(db: DB, actor: Actor, id: string | null, input: CampaignInput, version = 0): Promise<SaveResult> {
  try {
    return await db.transaction().execute((trx) => saveCampaignIn(trx, actor, id, input, version));
  } catch (e) {
    // Two saves racing for one address on PostgreSQL (SQLite runs transactions one at a time, so its check above always sees the other)
    // Stryker disable next-line ConditionalExpression: reached only by that race, which a SQLite mutation run cannot make
    if (isUniqueViolation(e)) return { error: 'slugTaken' };
    throw e;
  }
}

/** saveCampaign's writing, inside the caller's transaction (an import creates campaigns in its batch's). */
export async function saveCampaignIn(trx: DB, actor: Actor, id: string | null, input: CampaignInput, version = 0): Promise<SaveResult> {
  const values = clean(input);
  const problem = await campaignProblem(trx, id, input);
  if (problem) return { error: problem };
  let campaignId: string;
  if (id !== null) {
    const before = await getCampaign(trx, id);
    if (before) await recordBaseline(trx, { type: CAMPAIGN_TYPE, id }, campaignSnapshot(before));
  }
  if (id === null) {
    const now = new Date().toISOString();
    campaignId = newId();
    await trx.insertInto('campaigns').values({ id: campaignId, ...values, version: 1, created_at: now, updated_at: now }).execute();
  } else {
    const result = await updateVersioned(trx, 'campaigns', id, version, values);
    if (result !== 'ok') return { error: result };
    campaignId = id;
  }
  const campaign = toCampaign(await trx.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirstOrThrow());
  await audit(trx, actor, id === null ? 'campaign.create' : 'campaign.update', campaignLabel(campaign), { id: campaignId, status: campaign.status });
  await recordRevision(trx, { type: CAMPAIGN_TYPE, id: campaignId }, campaignSnapshot(campaign), actor, id === null ? 'create' : 'save');
  return { campaign };
}

/** Deletes a campaign; gifts designated to it keep their record (their campaign_id then names no campaign). */
export async function deleteCampaign(db: DB, actor: Actor, id: string): Promise<Campaign | undefined> {
  return db.transaction().execute((trx) => deleteCampaignIn(trx, actor, id));
}

/** deleteCampaign inside the caller's transaction (an import's undo). */
export async function deleteCampaignIn(trx: DB, actor: Actor, id: string): Promise<Campaign | undefined> {
  const row = await trx.deleteFrom('campaigns').where('id', '=', id).returningAll().executeTakeFirst();
  if (!row) return undefined;
  const campaign = toCampaign(row);
  await audit(trx, actor, 'campaign.delete', campaignLabel(campaign), { id });
  await deleteHistory(trx, { type: CAMPAIGN_TYPE, id });
  return campaign;
}
