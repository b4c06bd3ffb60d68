/**
 * Segments of the donors register (ADR 040): the saved ones (table `segments`) beside the
 * ready-made ones, the "Grands donateurs" threshold the Admin sets, and the SQL condition a
 * segment's rules make on `people as p` (its figures, its addresses' gifts, tags and subscription).
 * Who belongs is computed at each read from `now`; nothing about membership is stored.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { meansFilter, METHOD_MEANS, storedAs } from '~/domain/means/means';
import { csvDocument } from '~/lib/csv';
import { putSettingDocument, readSettingDocument } from '~/lib/settings-document.server';
import { chunks } from './figures.server';
import { figuresOf, monthlySince, yearOf, type DonorFigures } from './figures';
import { foldIn } from './sync.server';
import { BUILT_IN_SEGMENTS, DEFAULT_MAJOR_CENTS, builtInSegment, dayAfter, parseStoredRules, type RuleContext, type Segment, type SegmentRules } from './segments';

const MAJOR_KEY = 'people.major_threshold';

/** The "Grands donateurs" threshold, in cents (1 000 € until the Admin sets one). */
export async function majorThreshold(db: DB): Promise<number> {
  const v = (await readSettingDocument(db, MAJOR_KEY)).value as { cents?: unknown } | undefined;
  return typeof v?.cents === 'number' && Number.isInteger(v.cents) && v.cents > 0 ? v.cents : DEFAULT_MAJOR_CENTS;
}

export async function setMajorThreshold(db: DB, actor: Actor, cents: number, now = new Date()): Promise<void> {
  await putSettingDocument(db, MAJOR_KEY, { cents }, now);
  await audit(db, actor, 'segment.major_threshold', MAJOR_KEY, { cents });
}

/** The ready-made segments, then the saved ones by name. */
export async function listSegments(db: DB): Promise<Segment[]> {
  const rows = await db.selectFrom('segments').select(['id', 'name', 'rules']).orderBy('name').orderBy('id').execute();
  return [...BUILT_IN_SEGMENTS, ...rows.map((r) => ({ id: r.id, name: r.name, rules: parseStoredRules(r.rules) ?? NOBODY, builtIn: false }))];
}

/** Rules no record meets: what a stored segment that no longer reads selects (nobody rather than everyone). */
const NOBODY: SegmentRules = { giftsMin: 1, giftsMax: 0 };

export async function getSegment(db: DB, id: string): Promise<Segment | undefined> {
  const built = builtInSegment(id);
  if (built) return built;
  const r = await db.selectFrom('segments').select(['id', 'name', 'rules']).where('id', '=', id).executeTakeFirst();
  return r && { id: r.id, name: r.name, rules: parseStoredRules(r.rules) ?? NOBODY, builtIn: false };
}

/** Creates (id null) or changes a saved segment; its rules were read by `readSegmentForm`. Answers its id, or undefined when there is no such saved segment. */
export async function saveSegment(db: DB, actor: Actor, id: string | null, name: string, rules: SegmentRules, now = new Date()): Promise<string | undefined> {
  const at = now.toISOString();
  if (id === null) {
    const newId = randomUUID();
    await db.insertInto('segments').values({ id: newId, name, rules: JSON.stringify(rules), created_by: actor.name, created_at: at, updated_at: at }).execute();
    await audit(db, actor, 'segment.create', newId, { name });
    return newId;
  }
  const r = await db.updateTable('segments').set({ name, rules: JSON.stringify(rules), updated_at: at }).where('id', '=', id).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return undefined;
  await audit(db, actor, 'segment.update', id, { name });
  return id;
}

/** Deletes a saved segment (a ready-made one is never deleted). */
export async function deleteSegment(db: DB, actor: Actor, id: string): Promise<boolean> {
  if (builtInSegment(id)) return false;
  const r = await db.deleteFrom('segments').where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) return false;
  await audit(db, actor, 'segment.delete', id, {});
  return true;
}

/** The clock and the threshold the rules are judged with. */
export async function ruleContext(db: DB, now = new Date()): Promise<RuleContext> {
  return { now, majorCents: await majorThreshold(db) };
}

const GIFT = sql`status = 'succeeded' and purpose = 'gift'`;

/** The records having an address under which a gift matching `where` succeeded. */
const gaveWith = (where: Expression<SqlBool>) =>
  sql<SqlBool>`p.id in (select e.person_id from person_emails e where e.email in (select lower(donor_email) from donations where ${GIFT} and donor_email is not null and ${where}))`;

/**
 * Euros of a calendar year: at least `min` (min > 0: a row of that year must exist), at most `max`
 * (no row is 0 €). Correlated EXISTS on the per-year primary key: one probe per record, and an
 * anti-join on PostgreSQL where NOT IN would not be one.
 */
function yearBounds(year: number, min: number | undefined, max: number | undefined): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (min !== undefined && min > 0) out.push(sql<SqlBool>`exists (select 1 from person_years y where y.person_id = p.id and y.year = ${year} and y.cents >= ${min})`);
  if (max !== undefined) out.push(sql<SqlBool>`not exists (select 1 from person_years y where y.person_id = p.id and y.year = ${year} and y.cents > ${max})`);
  // No euro in the year: then no gift that counts in it either, so the last gift is not in it. Said on
  // the indexed expression too (people_last_sort), it spares a per-year probe for every record whose
  // last gift is this year's, which the lapsed segments, sorted by last gift, met first.
  if (max === 0) out.push(sql<SqlBool>`not (coalesce(p.last_gift_at, '') >= ${`${year}-01-01`} and coalesce(p.last_gift_at, '') < ${`${year + 1}-01-01`})`);
  return out;
}

function range(column: string, min: number | string | undefined, maxExclusive: number | string | undefined, maxInclusive?: number): Expression<SqlBool>[] {
  const ref = sql.ref(column);
  const out: Expression<SqlBool>[] = [];
  if (min !== undefined) out.push(sql<SqlBool>`${ref} >= ${min}`);
  if (maxExclusive !== undefined) out.push(sql<SqlBool>`${ref} < ${maxExclusive}`);
  if (maxInclusive !== undefined) out.push(sql<SqlBool>`${ref} <= ${maxInclusive}`);
  return out;
}

/** The condition a segment's rules make on `people as p` (every rule must hold; none: every record). */
export function segmentCondition(rules: SegmentRules, ctx: RuleContext): Expression<SqlBool> {
  const year = yearOf(ctx.now);
  const parts: Expression<SqlBool>[] = [
    ...range('p.total_cents', rules.totalMin, undefined, rules.totalMax),
    ...range('p.gifts', rules.giftsMin, undefined, rules.giftsMax),
    ...range('p.largest_cents', rules.largestMin, undefined, rules.largestMax),
    ...yearBounds(year, rules.thisYearMin, rules.thisYearMax),
    ...yearBounds(year - 1, rules.lastYearMin, rules.lastYearMax),
    ...range('p.first_gift_at', rules.firstFrom, rules.firstTo && dayAfter(rules.firstTo)),
    ...range('p.last_gift_at', rules.lastFrom, rules.lastTo && dayAfter(rules.lastTo)),
    ...(rules.firstThisYear ? range('p.first_gift_at', `${year}-01-01`, `${year + 1}-01-01`) : []),
    ...(rules.major ? range('p.total_cents', ctx.majorCents, undefined) : []),
  ];
  if (rules.monthly === true) parts.push(sql<SqlBool>`p.last_monthly_at >= ${monthlySince(ctx.now)}`);
  if (rules.monthly === false) parts.push(sql<SqlBool>`(p.last_monthly_at is null or p.last_monthly_at < ${monthlySince(ctx.now)})`);
  if (rules.tagIds) parts.push(sql<SqlBool>`p.id in (select person_id from person_tags where tag_id in (${sql.join(rules.tagIds)}))`);
  if (rules.campaignId) parts.push(gaveWith(sql<SqlBool>`campaign_id = ${rules.campaignId}`));
  if (rules.means) {
    // A means its method names (SEPA) by itself; any other by its provider, less the means its methods name.
    const f = meansFilter(METHOD_MEANS.includes(rules.means) ? rules.means : storedAs(rules.means));
    const method = f.method ? sql`method = ${f.method}` : f.notMethod ? sql`(method is null or method <> ${f.notMethod})` : sql`1 = 1`;
    parts.push(gaveWith(sql<SqlBool>`provider = ${f.provider ?? ''} and ${method}`));
  }
  if (rules.language) {
    const lang = rules.language;
    parts.push(
      sql<SqlBool>`p.id in (select e.person_id from person_emails e where e.email in (select lower(s.email) from subscribers s where s.language = ${lang}) or e.email in (select lower(donor_email) from donations where ${GIFT} and donor_email is not null and language = ${lang}))`,
    );
  }
  if (rules.subscribed !== undefined) {
    const subscribed = sql`p.id in (select e.person_id from person_emails e inner join subscribers s on lower(s.email) = e.email where s.status = 'subscribed')`;
    parts.push(rules.subscribed ? sql<SqlBool>`${subscribed}` : sql<SqlBool>`not ${subscribed}`);
  }
  return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` and `)})` : sql<SqlBool>`1 = 1`;
}

/** The live records of a segment, as a subquery of ids (a letter's audience joins it). */
export function segmentPeople(db: DB, rules: SegmentRules, ctx: RuleContext) {
  return db.selectFrom('people as p').select('p.id').where('p.merged_into', 'is', null).where(segmentCondition(rules, ctx));
}

/** How many live records each segment holds at `now` (the register folded in first). */
export async function segmentCounts(db: DB, segments: readonly Segment[], ctx: RuleContext): Promise<Map<string, number>> {
  await foldIn(db, ctx.now);
  const out = new Map<string, number>();
  for (const s of segments) {
    const r = await db.selectFrom('people as p').select(sql<number>`count(*)`.as('n')).where('p.merged_into', 'is', null).where(segmentCondition(s.rules, ctx)).executeTakeFirst();
    out.set(s.id, Number(r?.n ?? 0));
  }
  return out;
}

/**
 * The addresses of a segment's live records at `now`, as a subquery (the letters' queue joins its
 * subscribers to it); undefined for a segment that does not exist (a letter then reaches nobody).
 */
export async function segmentEmails(db: DB, segmentId: string, now = new Date()) {
  const segment = await getSegment(db, segmentId);
  if (!segment) return undefined;
  await foldIn(db, now);
  const people = segmentPeople(db, segment.rules, await ruleContext(db, now));
  return db.selectFrom('person_emails as e').select('e.email').where('e.person_id', 'in', people);
}

export interface SegmentMember extends DonorFigures {
  id: string;
  name: string;
  emails: string[];
  postalCode: string;
  /** The language of its subscription, else of its last gift; '' when neither says. */
  language: string;
}

/** Every live record of a segment at `now`, by name, with what the CSV export prints. */
export async function segmentMembers(db: DB, segment: Segment, now = new Date()): Promise<SegmentMember[]> {
  await foldIn(db, now);
  const year = yearOf(now);
  const rows = await segmentPeople(db, segment.rules, await ruleContext(db, now))
    .leftJoin('person_years as ty', (j) => j.onRef('ty.person_id', '=', 'p.id').on('ty.year', '=', year))
    .leftJoin('person_years as ly', (j) => j.onRef('ly.person_id', '=', 'p.id').on('ly.year', '=', year - 1))
    .select(['p.display_name', 'p.gifts', 'p.total_cents', 'p.largest_cents', 'p.first_gift_at', 'p.last_gift_at', 'p.last_monthly_at', 'ty.cents as this_year', 'ly.cents as last_year'])
    .orderBy('p.sort_name')
    .orderBy('p.id')
    .execute();
  const emails = new Map<string, { email: string; postal_code: string }[]>();
  const language = new Map<string, string>();
  for (const part of chunks(rows.map((r) => r.id))) {
    const found = await db.selectFrom('person_emails').select(['person_id', 'email', 'postal_code']).where('person_id', 'in', part).orderBy('email').execute();
    for (const e of found) emails.set(e.person_id, [...(emails.get(e.person_id) ?? []), e]);
    const addresses = found.map((e) => e.email);
    const personOf = new Map(found.map((e) => [e.email, e.person_id]));
    for (const sub of chunks(addresses)) {
      const gifts = await db.selectFrom('donations').select([sql<string>`lower(donor_email)`.as('email'), 'language']).where(sql<SqlBool>`lower(donor_email) in (${sql.join(sub)})`).where(sql<SqlBool>`${GIFT}`).orderBy('succeeded_at').execute();
      for (const g of gifts) language.set(personOf.get(g.email)!, g.language);
      const subs = await db.selectFrom('subscribers').select(['email', 'language']).where('email', 'in', sub).execute();
      for (const s2 of subs) language.set(personOf.get(s2.email.toLowerCase())!, s2.language);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.display_name,
    emails: (emails.get(r.id) ?? []).map((e) => e.email),
    postalCode: (emails.get(r.id) ?? []).find((e) => e.postal_code)?.postal_code ?? '',
    language: language.get(r.id) ?? '',
    ...figuresOf(r, { thisYear: r.this_year, lastYear: r.last_year }, now),
  }));
}

const eurosCell = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/** A segment's CSV (Admin: it holds addresses): one line per record, its addresses, postal code, language and figures; `;`, UTF-8 with BOM (lib/csv.ts). */
export function segmentCsv(members: readonly SegmentMember[], year: number): string {
  const header = ['Nom', 'E-mail', 'Code postal', 'Langue', 'Premier don', 'Dernier don', 'Nombre de dons', 'Total (€)', `${year} (€)`, `${year - 1} (€)`, 'Plus grand don (€)', 'Mensuel'];
  const rows = members.map((m) => [
    m.name,
    m.emails.join(', '),
    m.postalCode,
    m.language,
    m.firstGiftAt?.slice(0, 10) ?? '',
    m.lastGiftAt?.slice(0, 10) ?? '',
    m.gifts,
    eurosCell(m.totalCents),
    eurosCell(m.thisYearCents),
    eurosCell(m.lastYearCents),
    eurosCell(m.largestCents),
    m.monthly ? 'oui' : 'non',
  ]);
  return csvDocument(header, rows);
}
