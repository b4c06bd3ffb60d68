import { sql } from 'kysely';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { toDecimalString } from '~/domain/donations/money';
import { parisYear } from '~/domain/receipts/calendar';
import { issuedReceiptsFor, issuedReceiptsOfEmail, receiptsOfEmail } from '~/domain/receipts/register.server';
import { csvDocument } from '~/lib/csv';
import { hashToken } from '~/lib/tokens.server';
import { consentsOf, type ConsentRecord } from './consent.server';
import { giftEvents, monthlyGiftsOf, type MonthlyGiftView } from './monthly.server';

/**
 * A donor's personal data (ADR 013): their gifts, what they wrote through the contact form, their
 * consents — found by email, exported, erased. The history and the export read the same queries.
 */

/** Every gift of this email, newest first (all statuses: the donor sees what failed too). */
export async function giftsOf(db: DB, email: string) {
  return db
    .selectFrom('donations')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email))
    .orderBy('created_at', 'desc')
    .limit(5000)
    .execute();
}

export interface HistoryRow {
  id: string;
  date: string;
  amountMinor: number;
  currency: string;
  eurCents: number | null;
  provider: string;
  status: string;
  frequency: string;
  /**
   * The receipt's download address when an issued tax receipt exists for this gift (looked up in
   * app/domain/receipts); the history shows the link only then.
   */
  receiptUrl: string | null;
}

/** Where the donor space serves one of the donor's own receipts (app/routes/donors/receipt.ts). */
export const donorReceiptUrl = (receiptId: string) => `/mon-espace/recus/${encodeURIComponent(receiptId)}`;

export async function historyOf(db: DB, email: string): Promise<HistoryRow[]> {
  const gifts = await giftsOf(db, email);
  const receipts = await issuedReceiptsFor(db, gifts.map((d) => d.id));
  return gifts.map((d) => ({
    id: d.id,
    date: d.succeeded_at ?? d.created_at,
    amountMinor: d.amount_minor,
    currency: d.currency,
    eurCents: d.eur_cents,
    provider: d.provider,
    status: d.status,
    frequency: d.frequency,
    receiptUrl: receipts.has(d.id) ? donorReceiptUrl(receipts.get(d.id)!.id) : null,
  }));
}

export interface AnnualReceiptRow {
  id: string;
  number: string;
  /** The calendar year of the gifts it sums. */
  year: number;
  amountCents: number;
  issuedAt: string;
  url: string;
}

/** The donor's issued annual (recapitulative) receipts, newest first, each with its download address. */
export async function annualReceiptsOf(db: DB, email: string): Promise<AnnualReceiptRow[]> {
  return (await issuedReceiptsOfEmail(db, email))
    .filter((r) => r.kind === 'annual')
    .map((r) => ({ id: r.id, number: r.number, year: parisYear(r.paid_at), amountCents: r.amount_cents, issuedAt: r.issued_at, url: donorReceiptUrl(r.id) }));
}

export async function messagesOf(db: DB, email: string) {
  return db
    .selectFrom('messages')
    .select(['id', 'first_name', 'last_name', 'email', 'message', 'language', 'created_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .orderBy('created_at')
    .execute();
}

export interface DonorExport {
  email: string;
  exportedAt: string;
  gifts: {
    id: string;
    createdAt: string;
    succeededAt: string | null;
    amount: string;
    currency: string;
    amountEur: string | null;
    method: string;
    status: string;
    frequency: string;
    name: string | null;
    email: string | null;
    language: string;
  }[];
  monthlyGifts: (MonthlyGiftView & { amount: string; changes: { kind: string; at: string; amount: string | null; source: string }[] })[];
  messages: { id: string; createdAt: string; firstName: string; lastName: string; email: string; message: string; language: string }[];
  consents: ConsentRecord[];
  /** Tax receipts made out to this email, cancelled ones included (the register keeps both). */
  receipts: { id: string; number: string; kind: string; year: number; amount: string; currency: 'EUR'; issuedAt: string; status: string; cancelledAt: string | null }[];
}

/** Everything kept under this email, and nothing else. */
export async function exportDonorData(db: DB, email: string, now = new Date()): Promise<DonorExport> {
  const gifts = await giftsOf(db, email);
  const monthly = await monthlyGiftsOf(db, email);
  return {
    email,
    exportedAt: now.toISOString(),
    gifts: gifts.map((d) => ({
      id: d.id,
      createdAt: d.created_at,
      succeededAt: d.succeeded_at,
      amount: toDecimalString(d.amount_minor, d.currency),
      currency: d.currency,
      amountEur: d.eur_cents === null ? null : toDecimalString(d.eur_cents, 'EUR'),
      method: d.provider,
      status: d.status,
      frequency: d.frequency,
      name: d.donor_name,
      email: d.donor_email,
      language: d.language,
    })),
    monthlyGifts: await Promise.all(
      monthly.map(async (g) => ({
        ...g,
        amount: toDecimalString(g.amountMinor, g.currency),
        changes: (await giftEvents(db, g.id)).map((e) => ({ kind: e.kind, at: e.at, amount: e.amount_minor === null ? null : toDecimalString(e.amount_minor, g.currency), source: e.source })),
      })),
    ),
    messages: (await messagesOf(db, email)).map((m) => ({ id: m.id, createdAt: m.created_at, firstName: m.first_name, lastName: m.last_name, email: m.email, message: m.message, language: m.language })),
    consents: await consentsOf(db, email),
    receipts: (await receiptsOfEmail(db, email)).map((r) => ({
      id: r.id,
      number: r.number,
      kind: r.kind,
      year: r.year,
      amount: toDecimalString(r.amount_cents, 'EUR'),
      currency: 'EUR' as const,
      issuedAt: r.issued_at,
      status: r.status,
      cancelledAt: r.cancelled_at,
    })),
  };
}

/** The same as one CSV: one line per record, its kind first. */
export function donorExportCsv(x: DonorExport): string {
  const header = ['record', 'id', 'date', 'amount', 'currency', 'amount_eur', 'method', 'status', 'frequency', 'name', 'email', 'language', 'details'];
  const rows = [
    ...x.gifts.map((g) => ['gift', g.id, g.succeededAt ?? g.createdAt, g.amount, g.currency, g.amountEur, g.method, g.status, g.frequency, g.name, g.email, g.language, '']),
    ...x.monthlyGifts.map((g) => ['monthly_gift', g.id, g.startedAt, g.amount, g.currency, '', 'stripe', g.status, 'monthly', '', x.email, '', g.changes.map((c) => `${c.at} ${c.kind}${c.amount ? ` ${c.amount}` : ''}`).join(' | ')]),
    ...x.messages.map((m) => ['message', m.id, m.createdAt, '', '', '', '', '', '', `${m.firstName} ${m.lastName}`.trim(), m.email, m.language, m.message]),
    ...x.consents.map((c) => ['consent', c.donationId, c.givenAt, '', '', '', '', c.withdrawnAt ? `withdrawn ${c.withdrawnAt}` : 'given', '', '', x.email, '', c.kind]),
    ...x.receipts.map((r) => ['tax_receipt', r.number, r.issuedAt, r.amount, r.currency, r.amount, '', r.cancelledAt ? `${r.status} ${r.cancelledAt}` : r.status, '', '', x.email, '', `${r.kind} ${r.year}`]),
  ];
  return csvDocument(header, rows);
}

/** An email as the audit log may name it: never in clear (the log outlives erasure). */
export const donorRef = (email: string) => `donateur ${hashToken(email).slice(0, 12)}`;

export type ErasureResult = { ok: true; donations: number; messages: number } | { ok: false; reason: 'active_monthly' };

/**
 * Erases a donor: names and emails leave every table; donations keep their amounts, dates and
 * statuses (accounting), so every total stays the same. Refused while a monthly gift still runs
 * (Stripe would keep charging and telling us the email): it must be stopped first.
 *
 * The one place erasure happens: tax receipts (app/domain/receipts) must be kept as the law
 * requires, and their tables are left alone here on purpose — add nothing that deletes them.
 */
export async function eraseDonorData(db: DB, email: string, actor: Actor): Promise<ErasureResult> {
  const running = (await monthlyGiftsOf(db, email)).filter((g) => g.status !== 'ended');
  if (running.length) return { ok: false, reason: 'active_monthly' };
  const pattern = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.transaction().execute(async (trx) => {
    const ids = (await trx.selectFrom('donations').select('id').where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email)).execute()).map((r) => r.id);
    if (ids.length) await trx.deleteFrom('donor_consents').where('donation_id', 'in', ids).execute();
    const donations = ids.length ? Number((await trx.updateTable('donations').set({ donor_name: null, donor_email: null }).where('id', 'in', ids).executeTakeFirst()).numUpdatedRows) : 0;
    const messages = Number((await trx.deleteFrom('messages').where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirst()).numDeletedRows);
    // Mails to the donor, and notifications that quote them (a contact message forwarded to the team).
    await trx
      .deleteFrom('mail_outbox')
      .where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['to']), '=', email),
          ...(['subject', 'text', 'html'] as const).map((c) => eb(sql`lower(${sql.ref(c)})`, 'like', sql`${pattern} escape '\\'`)),
        ]),
      )
      .execute();
    await trx.deleteFrom('donor_links').where('email', '=', email).execute();
    await trx.deleteFrom('donor_sessions').where('email', '=', email).execute();
    // Counters keyed by an account's email (admin sign-in attempts with it, for instance).
    await trx.deleteFrom('rate_limits').where(sql`lower(${sql.ref('key')})`, 'like', sql`${pattern} escape '\\'`).execute();
    await audit(trx, actor, 'donor.erased', donorRef(email), { donations, messages });
    return { ok: true as const, donations, messages };
  });
}

/**
 * Retention (ADR 013): contact messages and abandoned attempts (never paid: pending or cancelled)
 * older than `days` are deleted, with the consents given on those attempts. Run by the periodic job.
 */
export async function purgeExpiredPersonalData(db: DB, days: number, now = new Date()): Promise<{ messages: number; attempts: number }> {
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
  return db.transaction().execute(async (trx) => {
    const messages = Number((await trx.deleteFrom('messages').where('created_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
    const stale = trx.selectFrom('donations').select('id').where('status', 'in', ['pending', 'cancelled']).where('created_at', '<', cutoff);
    await trx.deleteFrom('donor_consents').where('donation_id', 'in', stale).execute();
    const attempts = Number((await trx.deleteFrom('donations').where('status', 'in', ['pending', 'cancelled']).where('created_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
    return { messages, attempts };
  });
}
