import { sql, type SqlBool } from 'kysely';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { campaignChoices } from '~/domain/campaigns/campaigns.server';
import { deleteStaleAttempts, eraseGiftDetails } from '~/domain/donations/ledger.server';
import { debitOf, type DebitDetails } from '~/domain/donations/status';
import { meansKey } from '~/domain/means/means';
import { toDecimalString } from '~/lib/currency';
import { parisYear } from '~/lib/paris';
import { parseTaxDetails, type TaxDetails } from '~/domain/receipts/donor-details';
import { eraseSubscription, subscriptionOf, type SubscriberEvent } from '~/domain/subscribers/subscribers.server';
import { issuedReceiptsFor, issuedReceiptsOfEmail, receiptsOfEmail } from '~/domain/receipts/register.server';
import { csvDocument, type CsvValue } from '~/lib/csv';
import { hashToken } from '~/lib/tokens.server';
import { consentsOf, type ConsentRecord } from './consent.server';
import { donorMentions, type Mentions } from './mentions';
import { giftEvents, monthlyGiftsOf, type MonthlyGiftView } from '~/domain/donations/monthly.server';
import { forgetEmail, personalRecordCsv, personalRecordOf, type PersonalRecord } from '~/domain/people/personal.server';
import { eraseMembershipData, exportMembershipData, memberNamesOf, membershipCsvRecords, type MembershipExport } from '~/domain/membership/personal-data.server';

/**
 * A donor's personal data (ADR 013): their gifts, what they wrote through the contact form, their
 * consents, their subscription to the news letters (ADR 022), their memberships (ADR 021) — found by email, exported, erased. The history and the export read the same queries.
 */

/** Every gift of this email, newest first (all statuses: the donor sees what failed too). */
export async function giftsOf(db: DB, email: string) {
  return db.selectFrom('donations').selectAll().where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email)).orderBy('created_at', 'desc').limit(5000).execute();
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
  /** What the payment was for: a gift, or a member's yearly dues (shown "Cotisation", not "Ponctuel"). */
  purpose: string;
  /**
   * The receipt's download address when an issued tax receipt exists for this gift (looked up in
   * app/domain/receipts); the history shows the link only then.
   */
  receiptUrl: string | null;
  /** A direct debit's account and mandate, shown beside its means (ADR 029). */ debit: DebitDetails | null;
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
    provider: meansKey(d),
    status: d.status,
    frequency: d.frequency,
    purpose: d.purpose,
    receiptUrl: receipts.has(d.id) ? donorReceiptUrl(receipts.get(d.id)!.id) : null,
    debit: debitOf(d),
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
    /** The part of amountEur the donor added to cover processing fees. */
    feesCoveredEur: string;
    method: string;
    status: string;
    frequency: string;
    name: string | null;
    email: string | null;
    language: string;
    /** The campaign the gift was designated to (its title in French, as the foundation names it). */
    campaign: { slug: string; title: string } | null;
    /** What the donor gave for a tax receipt: name, postal address, a company's name and SIREN. */
    taxReceiptDetails: TaxDetails | null;
    /** The person the gift honours or remembers, the donor's message, the address told. */
    dedication: { kind: string | null; name: string; message: string | null; email: string | null; notifiedAt: string | null } | null;
  }[];
  monthlyGifts: (MonthlyGiftView & { amount: string; changes: { kind: string; at: string; amount: string | null; source: string }[] })[];
  messages: { id: string; createdAt: string; firstName: string; lastName: string; email: string; message: string; language: string }[];
  consents: ConsentRecord[];
  /** The subscription to the news letters, with its proof of consent (ADR 022), if any. */
  newsletter: { status: string; language: string; source: string; createdAt: string; events: SubscriberEvent[] } | null;
  /** Tax receipts made out to this email, cancelled ones included (the register keeps both). */
  receipts: { id: string; number: string; kind: string; year: number; amount: string; currency: 'EUR'; issuedAt: string; status: string; cancelledAt: string | null }[];
  /** Memberships registered under this email, with their dues and reminders (ADR 021). */
  memberships: MembershipExport[];
  record: PersonalRecord | null; // staff's notes and tags on the donor's record (ADR 038): personal data, so exported
}

/** Everything kept under this email, and nothing else. */
export async function exportDonorData(db: DB, email: string, now = new Date()): Promise<DonorExport> {
  const gifts = await giftsOf(db, email);
  const monthly = await monthlyGiftsOf(db, email);
  const campaigns = gifts.some((d) => d.campaign_id) ? new Map((await campaignChoices(db)).map((c) => [c.id, { slug: c.slug, title: c.title }])) : new Map();
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
      feesCoveredEur: toDecimalString(d.fee_eur_cents, 'EUR'),
      method: meansKey(d),
      status: d.status,
      frequency: d.frequency,
      name: d.donor_name,
      email: d.donor_email,
      language: d.language,
      campaign: d.campaign_id ? (campaigns.get(d.campaign_id) ?? { slug: '', title: d.campaign_id }) : null,
      taxReceiptDetails: parseTaxDetails(d.tax_details),
      dedication: d.dedication_name ? { kind: d.dedication_kind, name: d.dedication_name, message: d.dedication_message, email: d.dedication_email, notifiedAt: d.dedication_sent_at } : null,
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
    newsletter: await newsletterOf(db, email),
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
    memberships: await exportMembershipData(db, email),
    record: await personalRecordOf(db, email),
  };
}

const newsletterOf = async (db: DB, email: string): Promise<DonorExport['newsletter']> => (await subscriptionOf(db, email).then((s) => s && { status: s.status, language: s.language, source: s.source, createdAt: s.createdAt, events: s.events }));

/**
 * The CSV's columns: the first thirteen as before, then the gift's designation, receipt details and
 * dedication (a column each, empty on the other records).
 */
const CSV_COLUMNS = [
  'record', 'id', 'date', 'amount', 'currency', 'amount_eur', 'method', 'status', 'frequency', 'name', 'email', 'language', 'details',
  'fees_covered_eur', 'campaign',
  'tax_kind', 'tax_name', 'tax_company', 'tax_legal_form', 'tax_siren', 'tax_address', 'tax_postal_code', 'tax_city', 'tax_country',
  'dedication_kind', 'dedication_name', 'dedication_message', 'dedication_email', 'dedication_notified_at',
] as const;
type CsvRecord = Partial<Record<(typeof CSV_COLUMNS)[number], CsvValue>>;

function giftRecord(g: DonorExport['gifts'][number]): CsvRecord {
  const tax = g.taxReceiptDetails;
  const d = g.dedication;
  return {
    record: 'gift',
    id: g.id,
    date: g.succeededAt ?? g.createdAt,
    amount: g.amount,
    currency: g.currency,
    amount_eur: g.amountEur,
    method: g.method,
    status: g.status,
    frequency: g.frequency,
    name: g.name,
    email: g.email,
    language: g.language,
    fees_covered_eur: g.feesCoveredEur,
    campaign: g.campaign ? `${g.campaign.title} (${g.campaign.slug})` : '',
    ...(tax ? { tax_kind: tax.kind, tax_name: tax.name, tax_company: tax.company, tax_legal_form: tax.legalForm ?? '', tax_siren: tax.siren, tax_address: tax.address, tax_postal_code: tax.postalCode, tax_city: tax.city, tax_country: tax.country } : {}),
    ...(d ? { dedication_kind: d.kind, dedication_name: d.name, dedication_message: d.message, dedication_email: d.email, dedication_notified_at: d.notifiedAt } : {}),
  };
}

/** The same as one CSV: one line per record, its kind first. */
export function donorExportCsv(x: DonorExport): string {
  const records: CsvRecord[] = [
    ...x.gifts.map(giftRecord),
    ...x.monthlyGifts.map((g) => ({ record: 'monthly_gift', id: g.id, date: g.startedAt, amount: g.amount, currency: g.currency, method: g.provider, status: g.status, frequency: 'monthly', email: x.email, details: g.changes.map((c) => `${c.at} ${c.kind}${c.amount ? ` ${c.amount}` : ''}`).join(' | ') })),
    ...x.messages.map((m) => ({ record: 'message', id: m.id, date: m.createdAt, name: `${m.firstName} ${m.lastName}`.trim(), email: m.email, language: m.language, details: m.message })),
    ...x.consents.map((c) => ({ record: 'consent', id: c.donationId, date: c.givenAt, status: c.withdrawnAt ? `withdrawn ${c.withdrawnAt}` : 'given', email: x.email, details: c.kind })),
    ...(x.newsletter?.events ?? []).map((e) => ({ record: 'newsletter', date: e.at, status: e.kind, email: x.email, language: x.newsletter!.language, details: [e.source, e.wordingVersion, e.detail].filter(Boolean).join(' ') })),
    ...membershipCsvRecords(x.memberships),
    ...personalRecordCsv(x.record, x.email),
    ...x.receipts.map((r) => ({ record: 'tax_receipt', id: r.number, date: r.issuedAt, amount: r.amount, currency: r.currency, amount_eur: r.amount, status: r.cancelledAt ? `${r.status} ${r.cancelledAt}` : r.status, email: x.email, details: `${r.kind} ${r.year}` })),
  ];
  return csvDocument(CSV_COLUMNS, records.map((r) => CSV_COLUMNS.map((c) => r[c] ?? '')));
}

/** An email as the audit log may name it: never in clear (the log outlives erasure). */
export const donorRef = (email: string) => `donateur ${hashToken(email).slice(0, 12)}`;

export type ErasureResult = { ok: true; donations: number; messages: number } | { ok: false; reason: 'active_monthly' };

/** `%text%` for LIKE, its own `%`, `_` and `\` taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether a column holds any of the fragments, in any case (both sides lowered alike, on SQLite as on PostgreSQL). */
const holdsAny = (columns: string[], fragments: string[]) =>
  columns.flatMap((c) => fragments.map((f) => sql<SqlBool>`lower(${sql.ref(c)}) like lower(${likePattern(f)}) escape '\\'`));

/**
 * Erases a donor: their email and names leave every table but the tax receipts register. Donations
 * keep their amounts, dates, statuses and campaign (accounting), so every total stays the same, and
 * lose the name, email, receipt details (postal address, company) and dedication. Refused while a
 * monthly gift still runs (Stripe would keep charging and telling us the email): it must be stopped
 * first.
 *
 * The one place erasure happens: issued tax receipts (app/domain/receipts) must be kept as the law
 * requires, each with the donor as printed, and their tables are left alone here on purpose — add
 * nothing that deletes or changes them; a receipt reprints from its own row.
 */
export async function eraseDonorData(db: DB, email: string, actor: Actor): Promise<ErasureResult> {
  const running = (await monthlyGiftsOf(db, email)).filter((g) => g.status !== 'ended');
  if (running.length) return { ok: false, reason: 'active_monthly' };
  return db.transaction().execute(async (trx) => {
    const gifts = await trx
      .selectFrom('donations')
      .select(['id', 'donor_name', 'tax_details', 'dedication_name', 'dedication_email'])
      .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email))
      .execute();
    const ids = gifts.map((g) => g.id);
    const signed = await trx.selectFrom('messages').select(['first_name', 'last_name']).where((eb) => eb(eb.fn('lower', ['email']), '=', email)).execute();
    // The names the donor gave: to the payment provider, for a receipt, when writing to us.
    const names = [...gifts.flatMap((g) => [g.donor_name, parseTaxDetails(g.tax_details)?.name]), ...signed.map((m) => `${m.first_name} ${m.last_name}`), ...(await memberNamesOf(trx, email))];
    const mentions = donorMentions(email, names);
    if (ids.length) await trx.deleteFrom('donor_consents').where('donation_id', 'in', ids).execute();
    const donations = await eraseGiftDetails(trx, ids);
    // A cheque's drawer names the donor (ADR 028); written here as messages are (no area circle).
    if (ids.length) await trx.updateTable('offline_gifts').set({ drawer: null }).where('payment_id', 'in', ids).execute();
    const messages = Number((await trx.deleteFrom('messages').where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirst()).numDeletedRows);
    const dedications = gifts.flatMap((g) => (g.dedication_email && g.dedication_name ? [{ to: g.dedication_email.toLowerCase(), name: g.dedication_name.toLowerCase() }] : []));
    await deleteMailsAbout(trx, email, mentions, dedications);
    await trx.deleteFrom('donor_links').where('email', '=', email).execute();
    await trx.deleteFrom('donor_sessions').where('email', '=', email).execute();
    await eraseSubscription(trx, email);
    // Memberships keep their number, type, dates and dues, anonymised (ADR 021).
    await eraseMembershipData(trx, email);
    await forgetEmail(trx, email);
    // Counters keyed by an account's email (admin sign-in attempts with it, for instance).
    await trx.deleteFrom('rate_limits').where((eb) => eb.or(holdsAny(['key'], [email]))).execute();
    await rewriteAuditLines(trx, mentions, donorRef(email));
    await audit(trx, actor, 'donor.erased', donorRef(email), { donations, messages });
    return { ok: true as const, donations, messages };
  });
}

/**
 * Mails to the donor, mails that name them (a contact message forwarded to the team, the notice of
 * a dedication that names the donor), and the notices of their dedications (to the person told,
 * quoting the donor's message) leave the outbox.
 */
async function deleteMailsAbout(trx: DB, email: string, mentions: Mentions, dedications: { to: string; name: string }[]): Promise<void> {
  const candidates = await trx
    .selectFrom('mail_outbox')
    .select(['id', 'to', 'subject', 'text', 'html'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['to']), 'in', [email, ...dedications.map((d) => d.to)]),
        ...holdsAny(['subject', 'text', 'html'], mentions.fragments),
      ]),
    )
    .execute();
  const doomed = candidates
    .filter((m) => {
      const to = m.to.toLowerCase();
      if (to === email || [m.subject, m.text, m.html].some((t) => mentions.in(t))) return true;
      return dedications.some((d) => d.to === to && `${m.subject}\n${m.text}`.toLowerCase().includes(d.name));
    })
    .map((m) => m.id);
  if (doomed.length) await trx.deleteFrom('mail_outbox').where('id', 'in', doomed).execute();
}

/** Audit lines keep what happened and who did it; where their target or details name the donor, they name `ref` instead. */
async function rewriteAuditLines(trx: DB, mentions: Mentions, ref: string): Promise<void> {
  const lines = await trx
    .selectFrom('audit_log')
    .select(['id', 'target', 'details'])
    .where((eb) => eb.or(holdsAny(['target', 'details'], mentions.fragments)))
    .execute();
  for (const line of lines) {
    const target = mentions.rewrite(line.target, ref);
    const details = mentions.rewrite(line.details, ref);
    if (target !== line.target || details !== line.details) await trx.updateTable('audit_log').set({ target, details }).where('id', '=', line.id).execute();
  }
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
    const attempts = await deleteStaleAttempts(trx, cutoff);
    return { messages, attempts };
  });
}
