/**
 * The membership section of the reports screen (ADR 021, ADR 016): the register and its dues read
 * once (a foundation's members are counted in hundreds, not in the ledger's millions), and the
 * figures computed by report.ts from the dates and dues alone.
 */
import type { DB } from '~db/index';
import { parisDay } from '~/lib/paris';
import { type Period } from './period';
import { duesByMonth, memberMonths, type DuesBucket, type MemberHistory, type MemberMonth } from './report';
import { getMembershipSettings } from './settings.server';
import type { MembershipState } from './status';

export interface MembershipReport {
  months: (MemberMonth & { dues: DuesBucket; previousDues: DuesBucket })[];
  /** Members counted on the period's last day (or today). */
  activeAtEnd: number;
  totals: { new: number; renewed: number; lapsed: number; dues: DuesBucket; previousDues: DuesBucket };
}

/** Every member's history: its periods and the dues that count, oldest first. */
async function histories(db: DB): Promise<MemberHistory[]> {
  const members = await db.selectFrom('memberships').select(['id', 'exempt', 'state_override', 'created_at']).execute();
  const dues = await db
    .selectFrom('membership_dues')
    .select(['membership_id', 'paid_at', 'amount_cents', 'period_start', 'period_end'])
    .where('status', '=', 'paid')
    .orderBy('paid_at')
    .orderBy('created_at')
    .execute();
  const byMember = new Map<string, { periods: Period[]; dues: { paidOn: string; cents: number }[] }>();
  for (const d of dues) {
    const entry = byMember.get(d.membership_id) ?? { periods: [], dues: [] };
    entry.dues.push({ paidOn: parisDay(d.paid_at), cents: Number(d.amount_cents) });
    if (d.period_start && d.period_end) entry.periods.push({ start: d.period_start, end: d.period_end });
    byMember.set(d.membership_id, entry);
  }
  return members.map((m) => {
    const entry = byMember.get(m.id) ?? { periods: [], dues: [] };
    return {
      exempt: m.exempt === 1,
      override: m.state_override as MembershipState | null,
      since: parisDay(m.created_at),
      periods: entry.periods.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)),
      dues: entry.dues,
    };
  });
}

const yearBefore = (month: string) => `${String(Number(month.slice(0, 4)) - 1).padStart(4, '0')}${month.slice(4)}`;

/** The members and dues of each month of `months` (the reports' months), as known on `now`. */
export async function membershipReport(db: DB, months: readonly string[], now = new Date()): Promise<MembershipReport> {
  const today = parisDay(now.toISOString());
  const [all, { graceDays }] = await Promise.all([histories(db), getMembershipSettings(db)]);
  const figures = memberMonths(all, months, today, graceDays);
  const dues = duesByMonth(all, months);
  const previous = duesByMonth(all, months.map(yearBefore));
  const none: DuesBucket = { dues: 0, cents: 0 };
  const rows = figures.map((f) => ({ ...f, dues: dues.get(f.month) ?? none, previousDues: previous.get(yearBefore(f.month)) ?? none }));
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const lastActive = [...figures].reverse().find((f) => `${f.month}-01` <= today);
  return {
    months: rows,
    activeAtEnd: lastActive?.active ?? 0,
    totals: {
      new: sum((r) => r.new),
      renewed: sum((r) => r.renewed),
      lapsed: sum((r) => r.lapsed),
      dues: { dues: sum((r) => r.dues.dues), cents: sum((r) => r.dues.cents) },
      previousDues: { dues: sum((r) => r.previousDues.dues), cents: sum((r) => r.previousDues.cents) },
    },
  };
}
