/**
 * A member's personal data (ADR 021, with ADR 013's donor export and erasure): the memberships
 * registered under an e-mail address, exported whole; erased by anonymising them — the register
 * keeps each membership's number, type, dates and dues (the association's accounts and its
 * general assemblies' counts), without anything that names the person; and anonymised the same
 * way by the retention job once a lapsed member's retention (membership settings) is over.
 * Tax receipts of deductible dues stay in the receipts register, as the law requires.
 */
import { sql } from 'kysely';
import type { DB } from '~db/index';
import { toDecimalString } from '~/lib/currency';
import { audit } from '~/domain/audit/audit.server';
import { parisDay } from '~/lib/paris';
import { isPastRetention } from './retention';
import { getMembershipSettings } from './settings.server';
import { getType } from './types.server';
import type { Member } from './register.server';
import type { MembershipState } from './status';

/** What an anonymised membership is called in the register. */
export const ERASED_NAME = 'Membre effacé';

const ofEmail = (email: string) => sql<boolean>`lower(email) = ${email}`;

/** The member's own fields, as the register names them. */
type MemberFields = Pick<Member, 'number' | 'firstName' | 'lastName' | 'email' | 'phone' | 'address' | 'postalCode' | 'city' | 'country' | 'language' | 'exempt' | 'endsOn'>;

export interface MembershipExport extends MemberFields {
  type: string;
  /** An Admin's decision about the state, with its reason. */
  override: { state: string; reason: string; at: string | null } | null;
  createdAt: string;
  dues: { paidAt: string; amount: string; currency: 'EUR'; method: string; periodStart: string | null; periodEnd: string | null; status: string; revokedAt: string | null }[];
  reminders: { step: number; periodEnd: string; channel: string; claimedAt: string; sentAt: string | null }[];
}

/** Every membership under this (lower-case) e-mail address, with its dues and reminders. */
export async function exportMembershipData(db: DB, email: string): Promise<MembershipExport[]> {
  const rows = await db.selectFrom('memberships').selectAll().where(ofEmail(email)).orderBy('number').execute();
  const out: MembershipExport[] = [];
  for (const m of rows) {
    const type = await getType(db, m.type_id);
    const dues = await db.selectFrom('membership_dues').selectAll().where('membership_id', '=', m.id).orderBy('paid_at').execute();
    const reminders = await db.selectFrom('membership_reminders').selectAll().where('membership_id', '=', m.id).orderBy('claimed_at').execute();
    out.push({
      number: Number(m.number),
      type: type?.translations.fr.name ?? m.type_id,
      firstName: m.first_name,
      lastName: m.last_name,
      email: m.email,
      phone: m.phone,
      address: m.address,
      postalCode: m.postal_code,
      city: m.city,
      country: m.country,
      language: m.language as Member['language'],
      exempt: m.exempt === 1,
      endsOn: m.ends_on,
      override: m.state_override ? { state: m.state_override, reason: m.override_reason, at: m.override_at } : null,
      createdAt: m.created_at,
      dues: dues.map((d) => ({ paidAt: d.paid_at, amount: toDecimalString(d.amount_cents, 'EUR'), currency: 'EUR' as const, method: d.method, periodStart: d.period_start, periodEnd: d.period_end, status: d.status, revokedAt: d.revoked_at })),
      reminders: reminders.map((r) => ({ step: r.step, periodEnd: r.period_end, channel: r.channel, claimedAt: r.claimed_at, sentAt: r.sent_at })),
    });
  }
  return out;
}

/** The export's memberships and dues as CSV records (the donor export's columns). */
export function membershipCsvRecords(memberships: MembershipExport[]) {
  return memberships.flatMap((m) => [
    {
      record: 'membership',
      id: String(m.number),
      date: m.createdAt,
      status: m.override ? `${m.override.state} (${m.override.reason})` : m.exempt ? 'exempt' : `ends ${m.endsOn ?? '-'}`,
      name: `${m.firstName} ${m.lastName}`.trim(),
      email: m.email,
      language: m.language,
      details: [m.type, m.phone, m.address, `${m.postalCode} ${m.city}`.trim(), m.country].filter(Boolean).join(' | '),
    },
    ...m.dues.map((d) => ({ record: 'membership_dues', id: String(m.number), date: d.paidAt, amount: d.amount, currency: d.currency, amount_eur: d.amount, method: d.method, status: d.revokedAt ? `${d.status} ${d.revokedAt}` : d.status, email: m.email, details: d.periodStart ? `${d.periodStart} → ${d.periodEnd}` : '' })),
  ]);
}

/** The names the memberships under this address give (for erasure's search of mails and audit lines). */
export async function memberNamesOf(db: DB, email: string): Promise<string[]> {
  const rows = await db.selectFrom('memberships').select(['first_name', 'last_name']).where(ofEmail(email)).execute();
  return rows.map((r) => `${r.first_name} ${r.last_name}`.trim());
}

const ANONYMOUS = { first_name: '', last_name: ERASED_NAME, email: '', phone: '', address: '', postal_code: '', city: '', country: '', override_reason: '' };

/** Anonymises the memberships under this address, inside the caller's transaction; answers how many. */
export async function eraseMembershipData(trx: DB, email: string): Promise<number> {
  const r = await trx
    .updateTable('memberships')
    .set({ ...ANONYMOUS, updated_at: new Date().toISOString() })
    .where(ofEmail(email))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Retention (membership settings): each membership past its retention (retention.ts) is
 * anonymised, and the mails sent to its address leave the outbox. Run by the hourly pruning job
 * (server/runtime-hooks.ts). Answers how many memberships were anonymised.
 */
export async function purgeLapsedMembers(db: DB, now = new Date()): Promise<number> {
  const { graceDays, retentionYears } = await getMembershipSettings(db);
  const today = parisDay(now.toISOString());
  const candidates = await db
    .selectFrom('memberships')
    .select(['id', 'number', 'email', 'exempt', 'state_override', 'override_at', 'created_at', 'ends_on'])
    .where('last_name', '<>', ERASED_NAME)
    .execute();
  const due = candidates.filter((m) =>
    isPastRetention(
      { exempt: m.exempt === 1, override: m.state_override as MembershipState | null, overrideOn: m.override_at ? parisDay(m.override_at) : null, since: parisDay(m.created_at), endsOn: m.ends_on },
      today,
      graceDays,
      retentionYears,
    ),
  );
  if (due.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    const emails = [...new Set(due.map((m) => m.email.toLowerCase()).filter(Boolean))];
    await trx.updateTable('memberships').set({ ...ANONYMOUS, updated_at: now.toISOString() }).where('id', 'in', due.map((m) => m.id)).execute();
    if (emails.length) await trx.deleteFrom('mail_outbox').where((eb) => eb(eb.fn('lower', ['to']), 'in', emails)).execute();
    await audit(trx, { id: null, name: 'Conservation des données' }, 'membership.retention', `${due.length} adhésion(s) anonymisée(s)`, { numbers: due.map((m) => Number(m.number)), retentionYears });
  });
  return due.length;
}
