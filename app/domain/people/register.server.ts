/**
 * The donors register's list and records (ADR 038): one row per live record, its figures kept in
 * step with the ledger (figures.server.ts), searched by name or address, sorted by any figure,
 * paginated by offset. Every read folds in what changed first (sync.server.ts).
 */
import { sql } from 'kysely';
import type { DB } from '~db/index';
import { figuresOf, monthlySince, yearOf, type DonorFigures } from './figures';
import { emailKey, sortName } from './keys';
import type { SegmentRules } from './segments';
import { segmentCondition } from './segments.server';
import { foldIn } from './sync.server';

export const SORTS = ['name', 'last', 'first', 'this_year', 'last_year', 'gifts', 'largest', 'total'] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZE = 50;

export interface ListQuery {
  q?: string;
  sort: Sort;
  desc: boolean;
  page: number;
  /** Only records with a gift that counts (default), or every record (members and subscribers too). */
  donorsOnly: boolean;
  monthlyOnly?: boolean;
  tagId?: string;
  /** A segment's rules (ADR 040), with the "Grands donateurs" threshold they are judged by. */
  segment?: { rules: SegmentRules; majorCents: number };
  /** Whether the search looks in the addresses too (an Admin's), or in the names only. */
  searchEmails?: boolean;
}

export interface PersonListRow extends DonorFigures {
  id: string;
  name: string;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const SORT_COLUMNS: Record<Sort, string> = {
  name: 'p.sort_name',
  last: "coalesce(p.last_gift_at, '')",
  first: "coalesce(p.first_gift_at, '')",
  this_year: 'coalesce(ty.cents, 0)',
  last_year: 'coalesce(ly.cents, 0)',
  gifts: 'p.gifts',
  largest: 'p.largest_cents',
  total: 'p.total_cents',
};

/** The records the query keeps (no join: the count reads the people table alone). */
function filtered(db: DB, query: ListQuery, now: Date) {
  let q = db.selectFrom('people as p').where('p.merged_into', 'is', null);
  if (query.donorsOnly) q = q.where('p.gifts', '>', 0);
  if (query.monthlyOnly) q = q.where('p.last_monthly_at', '>=', monthlySince(now));
  const text = query.searchEmails ? query.q?.trim().toLowerCase() : sortName(query.q ?? '');
  const column = query.searchEmails ? sql.ref('p.search_text') : sql.ref('p.sort_name');
  if (text) q = q.where(sql<boolean>`${column} like ${`%${likeEscape(text)}%`} escape '\\'`);
  if (query.tagId) q = q.where((eb) => eb.exists(eb.selectFrom('person_tags as t').select('t.tag_id').whereRef('t.person_id', '=', 'p.id').where('t.tag_id', '=', query.tagId!)));
  if (query.segment) q = q.where(segmentCondition(query.segment.rules, { now, majorCents: query.segment.majorCents }));
  return q;
}

/** One page of the list and how many records match. */
export async function listPeople(db: DB, query: ListQuery, now = new Date()): Promise<{ rows: PersonListRow[]; total: number }> {
  await foldIn(db, now);
  const year = yearOf(now);
  const totalRow = await filtered(db, query, now).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const dir = query.desc ? sql`desc` : sql`asc`;
  const rows = await filtered(db, query, now)
    .leftJoin('person_years as ty', (j) => j.onRef('ty.person_id', '=', 'p.id').on('ty.year', '=', year))
    .leftJoin('person_years as ly', (j) => j.onRef('ly.person_id', '=', 'p.id').on('ly.year', '=', year - 1))
    .select(['p.id', 'p.display_name', 'p.gifts', 'p.total_cents', 'p.largest_cents', 'p.first_gift_at', 'p.last_gift_at', 'p.last_monthly_at', 'ty.cents as this_year', 'ly.cents as last_year'])
    .orderBy(sql`${sql.raw(SORT_COLUMNS[query.sort])} ${dir}`)
    .orderBy('p.id')
    .limit(PAGE_SIZE)
    .offset(Math.max(0, query.page - 1) * PAGE_SIZE)
    .execute();
  return {
    total: Number(totalRow?.n ?? 0),
    rows: rows.map((r) => ({ id: r.id, name: r.display_name, ...figuresOf(r, { thisYear: r.this_year, lastYear: r.last_year }, now) })),
  };
}

export interface PersonRecord extends DonorFigures {
  id: string;
  name: string;
  emails: { email: string; name: string; postalCode: string; phone: string }[];
  mergedInto: string | null;
  createdAt: string;
}

/** A record with its addresses and figures; undefined when there is none. */
export async function getPerson(db: DB, id: string, now = new Date(), { fold = true } = {}): Promise<PersonRecord | undefined> {
  if (fold) await foldIn(db, now);
  const p = await db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
  if (!p) return undefined;
  const years = await db.selectFrom('person_years').select(['year', 'cents']).where('person_id', '=', id).execute();
  const cents = (y: number) => years.find((r) => Number(r.year) === y)?.cents ?? null;
  const emails = await db.selectFrom('person_emails').select(['email', 'name', 'postal_code', 'phone']).where('person_id', '=', id).orderBy('email').execute();
  return {
    id: p.id,
    name: p.display_name,
    mergedInto: p.merged_into,
    createdAt: p.created_at,
    emails: emails.map((e) => ({ email: e.email, name: e.name, postalCode: e.postal_code, phone: e.phone })),
    ...figuresOf(p, { thisYear: cents(yearOf(now)), lastYear: cents(yearOf(now) - 1) }, now),
  };
}

/** The record an address belongs to now (after the merges), if the register knows it. */
export async function personOfEmail(db: DB, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('person_emails').select('person_id').where('email', '=', emailKey(email)).executeTakeFirst();
  return row?.person_id;
}

/** For each address the register knows among these, its record: the key the annual statement groups gifts by (ADR 038). */
export async function peopleOfEmails(db: DB, emails: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const keys = [...new Set(emails.map((e) => emailKey(e)))];
  for (let i = 0; i < keys.length; i += 400) {
    const rows = await db.selectFrom('person_emails').select(['email', 'person_id']).where('email', 'in', keys.slice(i, i + 400)).execute();
    for (const r of rows) out.set(r.email, r.person_id);
  }
  return out;
}
