/**
 * The register of members (ADR 021): entries, the list with its filters, a member's page, an
 * Admin's override, and the general assembly's list. States are never stored: each is computed
 * from the dues history on the day asked (status.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import type { DB } from '~db/index';
import type { MembershipTable } from '~db/schema';
import { isUniqueViolation, lockFor } from '~db/helpers';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { contains } from '~/domain/content/store.server';
import { EXPIRING_WITHIN_DAYS, type MemberInput, type MemberLang } from './forms';
import { parisDay } from '~/lib/paris';
import { addDays, type Period } from './period';
import { isCounted, stateOn, type MembershipState } from './status';

export interface Member {
  id: string;
  number: number;
  typeId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
  language: MemberLang;
  exempt: boolean;
  endsOn: string | null;
  override: MembershipState | null;
  overrideReason: string;
  overrideBy: string | null;
  overrideAt: string | null;
  createdAt: string;
}

export interface MemberWithState extends Member {
  state: MembershipState;
  /** The periods its dues that count pay for, oldest first. */
  periods: Period[];
}

type MemberRow = Omit<MembershipTable, 'updated_at' | 'news_consent_at'>;

function fromRow(r: MemberRow): Member {
  return {
    id: r.id,
    number: r.number,
    typeId: r.type_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    address: r.address,
    postalCode: r.postal_code,
    city: r.city,
    country: r.country,
    language: r.language as MemberLang,
    exempt: r.exempt === 1,
    endsOn: r.ends_on,
    override: r.state_override as MembershipState | null,
    overrideReason: r.override_reason,
    overrideBy: r.override_by,
    overrideAt: r.override_at,
    createdAt: r.created_at,
  };
}

const MEMBER_COLUMNS = [
  'id',
  'number',
  'type_id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'address',
  'postal_code',
  'city',
  'country',
  'language',
  'exempt',
  'ends_on',
  'state_override',
  'override_reason',
  'override_by',
  'override_at',
  'created_at',
] as const;

/**
 * Enters a member (pending until dues are paid, unless exempt), with the next member number.
 * `actor` null: entered by the site (joining online), not audited as an admin change.
 */
export async function createMember(db: DB, actor: Actor | null, input: MemberInput): Promise<{ id: string; number: number }> {
  // Types are never deleted: checked before the transaction, whose first statement then writes
  // (on a SQLite file shared by processes, a transaction that reads first cannot wait for the lock).
  const type = await db.selectFrom('membership_types').select('id').where('id', '=', input.type_id).executeTakeFirst();
  if (!type) throw new RangeError(`Unknown membership type ${input.type_id}`);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await lockFor(trx, 'membership-number');
        const id = randomUUID();
        const now = new Date().toISOString();
        const { number } = await trx
          .insertInto('memberships')
          .values({
            id,
            // The next number, in the same statement as the insert.
            number: sql<number>`(select coalesce(max(number), 0) + 1 from memberships)`,
            type_id: input.type_id,
            first_name: input.first_name,
            last_name: input.last_name,
            email: input.email.toLowerCase(),
            phone: input.phone,
            address: input.address,
            postal_code: input.postal_code,
            city: input.city,
            country: input.country,
            language: input.language,
            exempt: input.exempt ? 1 : 0,
            ends_on: null,
            state_override: null,
            override_reason: '',
            override_by: null,
            override_at: null,
            news_consent_at: input.news ? now : null,
            created_at: now,
            updated_at: now,
          })
          .returning('number')
          .executeTakeFirstOrThrow();
        if (actor) await audit(trx, actor, 'membership.create', `Membre n° ${number}`, { id, number, typeId: input.type_id, exempt: input.exempt });
        return { id, number: Number(number) };
      });
    } catch (e) {
      // Two entries at once from two instances: take the next number.
      if (!isUniqueViolation(e) || attempt >= 3) throw e;
    }
  }
}

/** Sets (state and reason) or clears an Admin's override; audited. False when the member does not exist. */
export async function setOverride(db: DB, actor: Actor, id: string, override: { state: MembershipState; reason: string } | null): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const r = await trx
      .updateTable('memberships')
      .set(
        override
          ? { state_override: override.state, override_reason: override.reason, override_by: actor.name, override_at: now, updated_at: now }
          : { state_override: null, override_reason: '', override_by: null, override_at: null, updated_at: now },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    const number = (await trx.selectFrom('memberships').select('number').where('id', '=', id).executeTakeFirstOrThrow()).number;
    await audit(trx, actor, override ? 'membership.override' : 'membership.override.clear', `Membre n° ${number}`, override ? { id, state: override.state, reason: override.reason } : { id });
    return true;
  });
}

/** Every member with the periods its dues pay for, and its state on `day`. */
async function withStates(db: DB, rows: MemberRow[], day: string, graceDays: number): Promise<MemberWithState[]> {
  if (rows.length === 0) return [];
  const dues = await db
    .selectFrom('membership_dues')
    .select(['membership_id', 'period_start', 'period_end'])
    .where('status', '=', 'paid')
    .where('period_start', 'is not', null)
    .where(
      'membership_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('period_start')
    .execute();
  const periods = new Map<string, Period[]>();
  for (const d of dues) {
    const list = periods.get(d.membership_id) ?? [];
    list.push({ start: d.period_start as string, end: d.period_end as string });
    periods.set(d.membership_id, list);
  }
  return rows.map((r) => {
    const m = fromRow(r);
    const p = periods.get(m.id) ?? [];
    return { ...m, periods: p, state: stateOn({ exempt: m.exempt, override: m.override, since: parisDay(m.createdAt), periods: p }, day, graceDays) };
  });
}

export interface RegisterFilters {
  /** Name, e-mail or number. */
  q?: string;
  state?: MembershipState;
  typeId?: string;
  /** Members whose dues pay for a day of that year. */
  year?: number;
  /** Members whose dues end within the next 30 days. */
  expiringSoon?: boolean;
}

/** The register on `day`, filtered, by member number. */
export async function listMembers(db: DB, filters: RegisterFilters, day: string, graceDays: number): Promise<MemberWithState[]> {
  let query = db.selectFrom('memberships').select(MEMBER_COLUMNS).orderBy('number');
  if (filters.typeId) query = query.where('type_id', '=', filters.typeId);
  const q = filters.q?.trim().toLowerCase();
  if (q) {
    // Escaped as content/store.server.ts's contains() does, on names joined both ways.
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`lower(first_name || ' ' || last_name) like ${like} escape '\\'`,
        sql<SqlBool>`lower(last_name || ' ' || first_name) like ${like} escape '\\'`,
        contains('email', q),
        ...(/^\d{1,9}$/.test(q) ? [eb('number', '=', Number(q))] : []),
      ]),
    );
  }
  if (filters.expiringSoon) query = query.where('ends_on', '>=', day).where('ends_on', '<=', addDays(day, EXPIRING_WITHIN_DAYS));
  let members = await withStates(db, await query.execute(), day, graceDays);
  if (filters.state) members = members.filter((m) => m.state === filters.state);
  const year = filters.year;
  if (year !== undefined) members = members.filter((m) => m.periods.some((p) => p.start <= `${year}-12-31` && p.end >= `${year}-01-01`));
  return members;
}

export async function getMember(db: DB, id: string, day: string, graceDays: number): Promise<MemberWithState | undefined> {
  const row = await db.selectFrom('memberships').select(MEMBER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? (await withStates(db, [row], day, graceDays))[0] : undefined;
}

export interface DuesEntry {
  id: string;
  paymentId: string | null;
  method: string;
  amountCents: number;
  paidAt: string;
  period: Period | null;
  status: string;
  revokedAt: string | null;
  recordedBy: string | null;
}

/** A member's dues, newest first. */
export async function duesHistory(db: DB, membershipId: string): Promise<DuesEntry[]> {
  const rows = await db.selectFrom('membership_dues').selectAll().where('membership_id', '=', membershipId).orderBy('paid_at', 'desc').execute();
  return rows.map((r) => ({
    id: r.id,
    paymentId: r.payment_id,
    method: r.method,
    amountCents: r.amount_cents,
    paidAt: r.paid_at,
    period: r.period_start && r.period_end ? { start: r.period_start, end: r.period_end } : null,
    status: r.status,
    revokedAt: r.revoked_at,
    recordedBy: r.recorded_by,
  }));
}

export interface MemberNewsConsent {
  email: string;
  language: MemberLang;
  givenAt: string;
  number: number;
}

/**
 * Members counted on `day` (up to date, in grace, honorary) who have an email and consented to
 * the news, for the letters' list (ADR 022; letters reads this, membership imports nothing of
 * letters). `since`: only members whose entry changed from then (a consent, dues, an override).
 */
export async function membersWantingNews(db: DB, day: string, graceDays: number, since?: string): Promise<MemberNewsConsent[]> {
  let q = db.selectFrom('memberships').select([...MEMBER_COLUMNS, 'news_consent_at']).where('news_consent_at', 'is not', null).where('email', '!=', '');
  if (since) q = q.where('updated_at', '>=', since);
  const rows = await q.orderBy('number').execute();
  const consent = new Map(rows.map((r) => [r.id, r.news_consent_at!]));
  const members = await withStates(db, rows, day, graceDays);
  return members.filter((m) => isCounted(m.state)).map((m) => ({ email: m.email, language: m.language, givenAt: consent.get(m.id)!, number: m.number }));
}

/** Whether a member with this address consented to the news and has not taken it back. */
export async function hasMemberNewsConsent(db: DB, email: string): Promise<boolean> {
  const row = await db.selectFrom('memberships').select('id').where('news_consent_at', 'is not', null).where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase())).executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes back the news consent of every membership with this address (the address left the news
 * list: subscribers/leave.server.ts). The proof of the departure is the list's; the membership no
 * longer says it wants the news, so the letters' sync reads nothing of it. Returns how many stood.
 */
export async function withdrawMemberNewsConsent(db: DB, email: string, now = new Date()): Promise<number> {
  const r = await db
    .updateTable('memberships')
    .set({ news_consent_at: null, updated_at: now.toISOString() })
    .where('news_consent_at', 'is not', null)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The general assembly's list: the members counted on `day` (up to date, in grace, honorary), by name. */
export async function membersUpToDate(db: DB, day: string, graceDays: number): Promise<MemberWithState[]> {
  const all = await withStates(db, await db.selectFrom('memberships').select(MEMBER_COLUMNS).execute(), day, graceDays);
  return all.filter((m) => isCounted(m.state)).sort((a, b) => a.lastName.localeCompare(b.lastName, 'fr') || a.firstName.localeCompare(b.firstName, 'fr') || a.number - b.number);
}
