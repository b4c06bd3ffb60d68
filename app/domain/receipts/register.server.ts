/**
 * The register of tax receipts (ADR 012): the one writer of `receipts` and of its numbering —
 * issuing, cancelling on a refund, correcting, the annual statements — and the reads that must
 * agree with it. It runs over 350 lines because every write shares the per-year sequence and its
 * lock (`nextSequence`), which must not leave this module.
 */
import { peopleOfEmails } from '~/domain/people/register.server';
import { randomUUID } from 'node:crypto';
import { receiptMeansLabel } from '~/domain/means/means';
import { parisYear, parisYearStart } from '~/lib/paris';
import type { DB } from '~db/index';
import type { DonationTable, ReceiptTable } from '~db/schema';
import { lockFor } from '~db/helpers';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { parseTaxDetails, type TaxDetails } from './donor-details';
import { natureOfMeans } from './nature';
import { regimeOf } from './regimes';
import { receiptsActive, type ReceiptSettings } from './settings';
import { getReceiptSettings } from './settings.server';
import { getSiteSettings } from '~/domain/settings/site-settings.server';

export type Receipt = ReceiptTable;

/** Serializes the annual statement and the refunds that may cancel an annual receipt (PostgreSQL; SQLite has one writer). */
// Stryker disable next-line StringLiteral: the lock's name matters only on PostgreSQL, and mutation runs on SQLite
const ANNUAL_LOCK = 'receipts-annual';

/**
 * The organisation as printed on a receipt: the receipt settings at the time of issue, and the
 * site's logo then (absent from receipts issued before the logo was printed).
 */
export type OrganisationSnapshot = Omit<ReceiptSettings, 'enabled'> & { logoUrl?: string };

/**
 * What issuing needs besides the gift: the receipt settings and the organisation as a receipt
 * prints it (with the site's logo). Read before the transaction that takes a number — with the
 * payment settings, when a payment request starts (donations/deps.server.ts) —, so that inside
 * it only the year's counter, the insert and the receipts covering a gift are touched: on
 * PostgreSQL the counter row stays locked for that alone.
 */
export interface ReceiptContext {
  settings: ReceiptSettings;
  /** Receipts on, and every field they print filled in. */
  active: boolean;
  organisation: OrganisationSnapshot;
}

export async function receiptContext(db: DB): Promise<ReceiptContext> {
  const settings = await getReceiptSettings(db);
  const site = await getSiteSettings(db);
  // What the receipt prints of the organisation: the settings minus the switch and their version, and the site's logo.
  const { enabled: _enabled, version: _version, ...printed } = settings;
  return { settings, active: receiptsActive(settings), organisation: { ...printed, logoUrl: site.siteLogoUrl || site.logoUrl } };
}

export function receiptNumber(prefix: string, year: number, seq: number): string {
  return `${prefix ? `${prefix}-` : ''}${year}-${String(seq).padStart(6, '0')}`;
}

/**
 * The next number of a calendar year, inside the caller's transaction: one counter row per year,
 * bumped by a single UPDATE … RETURNING. On PostgreSQL the row stays locked until the transaction
 * ends, so two instances confirming gifts at once take turns; a rolled-back transaction gives its
 * number back with everything else, so there is never a gap or a duplicate.
 */
export async function nextSequence(trx: DB, year: number): Promise<number> {
  await trx.insertInto('receipt_counters').values({ year, last: 0 }).onConflict((oc) => oc.column('year').doNothing()).execute();
  const row = await trx
    .updateTable('receipt_counters')
    .set((eb) => ({ last: eb('last', '+', 1) }))
    .where('year', '=', year)
    .returning('last')
    .executeTakeFirstOrThrow();
  return Number(row.last);
}

interface NewReceipt {
  kind: 'gift' | 'annual';
  donationIds: string[];
  donor: TaxDetails;
  donorEmail: string | null;
  language: string;
  amountCents: number;
  paidAt: string;
  method: string;
  issuedAt: string;
  replacesId?: string | null;
  /** A gift not in money (ADR 030): its nature and what was given; money by default. */
  nature?: string;
  natureDescription?: string | null;
}

async function insertReceipt(trx: DB, ctx: ReceiptContext, r: NewReceipt): Promise<Receipt> {
  const year = parisYear(r.issuedAt);
  const seq = await nextSequence(trx, year);
  const row: Receipt = {
    id: randomUUID(),
    number: receiptNumber(ctx.settings.prefix, year, seq),
    year,
    seq,
    kind: r.kind,
    donation_id: r.kind === 'gift' ? r.donationIds[0] : null,
    donation_ids: JSON.stringify(r.donationIds),
    donor_email: r.donorEmail,
    language: r.language,
    donor: JSON.stringify(r.donor),
    organisation: JSON.stringify(ctx.organisation),
    amount_cents: r.amountCents,
    paid_at: r.paidAt,
    method: r.method,
    issued_at: r.issuedAt,
    status: 'issued',
    cancelled_at: null,
    cancel_reason: null,
    replaces_id: r.replacesId ?? null,
    sent_at: null,
    nature: r.nature ?? 'numeraire',
    nature_description: r.natureDescription ?? null,
    regime: regimeOf(r.donor),
  };
  await trx.insertInto('receipts').values(row).execute();
  return row;
}

/** Whether a confirmed gift gets its own receipt under these settings. */
export function giftGetsReceipt(ctx: ReceiptContext, d: Pick<DonationTable, 'status' | 'verifiable' | 'eur_cents' | 'tax_details' | 'frequency'>): boolean {
  // Stryker disable next-line ConditionalExpression: null <= 0 is true in JavaScript as well; the null check says what is meant
  if (!ctx.active || d.status !== 'succeeded' || !d.verifiable || d.eur_cents === null || d.eur_cents <= 0) return false;
  if (!parseTaxDetails(d.tax_details)) return false;
  return !(ctx.settings.model === 'annual_monthly' && d.frequency === 'monthly');
}

/**
 * Called by the donations ledger inside the transaction that moved a gift to `succeeded`, with the
 * context read before it: issues its receipt with the next number, or nothing (receipts off or incomplete, no details, a monthly
 * gift under the annual model, a value in euros unknown). A gift never gets two.
 */
export async function issueForGift(trx: DB, ctx: ReceiptContext, d: DonationTable, description?: string): Promise<Receipt | null> {
  if (!giftGetsReceipt(ctx, d)) return null;
  const existing = await trx.selectFrom('receipts').selectAll().where('donation_id', '=', d.id).where('status', '=', 'issued').executeTakeFirst();
  if (existing) return existing;
  const at = d.succeeded_at ?? d.updated_at;
  return insertReceipt(trx, ctx, {
    kind: 'gift',
    donationIds: [d.id],
    donor: parseTaxDetails(d.tax_details)!,
    donorEmail: d.donor_email,
    language: d.language,
    amountCents: d.eur_cents!,
    paidAt: at,
    method: receiptMeansLabel(d),
    issuedAt: at,
    nature: natureOfMeans(d.provider),
    natureDescription: description || null,
  });
}

/** What a refund did to the register: the receipts it cancelled, and the corrected annual receipts issued in their place. */
export interface RefundCancellation {
  cancelled: Receipt[];
  reissued: Receipt[];
}

/** Why a lost dispute (a chargeback, a SEPA return) cancelled a receipt: the register and the Admins' notice say so (ADR 027). */
export const DISPUTED_RECEIPT = 'Don contesté';

/**
 * Called by the ledger inside the refund's transaction: every issued receipt covering the gift
 * becomes "annulé" — its own, or the annual receipt summing it with the donor's other gifts. An
 * annual receipt is corrected at once: a new one, with the next number and `replaces_id`, for the
 * gifts it still covers, unless none is left or receipts are off or incomplete (then the next
 * annual statement of that year covers them).
 */
export async function cancelForRefund(trx: DB, ctx: ReceiptContext, donationId: string, at: string, reason = 'Don remboursé'): Promise<RefundCancellation> {
  // Taken in turn with the annual statement: it never sums a gift being refunded, and a refund
  // always sees the annual receipt a statement just issued.
  await lockFor(trx, ANNUAL_LOCK);
  const cancelled = await trx
    .updateTable('receipts')
    .set({ status: 'cancelled', cancelled_at: at, cancel_reason: reason })
    // Gift ids are UUIDs (no LIKE wildcard); donation_ids is the JSON list of every receipt, gift or annual.
    .where('donation_ids', 'like', `%${JSON.stringify(donationId)}%`)
    .where('status', '=', 'issued')
    .returningAll()
    .execute();
  const reissued: Receipt[] = [];
  for (const old of ctx.active ? cancelled : []) {
    // What it still covers: the refunded gift is no longer succeeded, so a gift's own receipt covers nothing more.
    const gifts = await trx.selectFrom('donations').selectAll().where('id', 'in', JSON.parse(old.donation_ids) as string[]).where('status', '=', 'succeeded').orderBy('succeeded_at').execute();
    if (!gifts.length) continue;
    const kept = { nature: old.nature, natureDescription: old.nature_description };
    reissued.push(await insertReceipt(trx, ctx, { kind: old.kind as 'gift' | 'annual', ...annualSum(gifts), ...kept, donor: JSON.parse(old.donor) as TaxDetails, donorEmail: old.donor_email, language: old.language, issuedAt: at, replacesId: old.id }));
  }
  return { cancelled, reissued };
}

/** What an annual receipt says of its gifts (in the order they were confirmed): which, how much, the last date, every method. */
function annualSum(gifts: DonationTable[]): Pick<NewReceipt, 'donationIds' | 'amountCents' | 'paidAt' | 'method'> {
  return {
    donationIds: gifts.map((g) => g.id),
    amountCents: gifts.reduce((s, g) => s + (g.eur_cents ?? 0), 0),
    paidAt: gifts[gifts.length - 1].succeeded_at!,
    method: [...new Set(gifts.map(receiptMeansLabel))].join(', '),
  };
}

export async function getReceipt(db: DB, id: string): Promise<Receipt | undefined> {
  return db.selectFrom('receipts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every receipt of a gift, the current one first (for /admin/donations and, later, the donor space). */
export async function receiptsOfDonation(db: DB, donationId: string): Promise<Receipt[]> {
  return db.selectFrom('receipts').selectAll().where('donation_id', '=', donationId).orderBy('status', 'desc').orderBy('issued_at', 'desc').execute();
}

/** The issued receipt of each gift listed (cancelled ones are left out). */
export async function issuedReceiptsFor(db: DB, donationIds: string[]): Promise<Map<string, Pick<Receipt, 'id' | 'number'>>> {
  const out = new Map<string, Pick<Receipt, 'id' | 'number'>>();
  // In chunks: a query names at most so many parameters (SQLite and PostgreSQL both have a limit).
  // Stryker disable next-line EqualityOperator: one more, empty chunk is `IN ()`, false on SQLite (where mutation runs); PostgreSQL refuses it, and the empty-list case catches that there
  for (let i = 0; i < donationIds.length; i += 500) {
    const chunk = donationIds.slice(i, i + 500);
    const rows = await db.selectFrom('receipts').select(['id', 'number', 'donation_id']).where('donation_id', 'in', chunk).where('status', '=', 'issued').execute();
    for (const r of rows) out.set(r.donation_id!, { id: r.id, number: r.number });
  }
  return out;
}

/**
 * Every receipt made out to this email (case-insensitive), both kinds, newest first: for the donor
 * space and the donor's export. `issuedOnly` leaves out the cancelled ones (what a donor may download).
 */
export async function receiptsOfEmail(db: DB, email: string, opts: { issuedOnly?: boolean } = {}): Promise<Receipt[]> {
  let q = db
    .selectFrom('receipts')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email.trim().toLowerCase()));
  if (opts.issuedOnly) q = q.where('status', '=', 'issued');
  return q.orderBy('issued_at', 'desc').orderBy('seq', 'desc').limit(5000).execute();
}

/** This email's issued receipts (gift and annual): the ones the donor space lists and serves. */
export const issuedReceiptsOfEmail = (db: DB, email: string): Promise<Receipt[]> => receiptsOfEmail(db, email, { issuedOnly: true });

/** One receipt, only when it is issued and made out to this email (case-insensitive); else undefined. */
export async function issuedReceiptOfEmail(db: DB, email: string, id: string): Promise<Receipt | undefined> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'issued')
    .where((eb) => eb(eb.fn('lower', ['donor_email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

/** The register of a year, in number order. */
export async function listReceipts(db: DB, year: number): Promise<Receipt[]> {
  return db.selectFrom('receipts').selectAll().where('year', '=', year).orderBy('seq').execute();
}

export interface YearTotals {
  issuedCount: number;
  issuedCents: number;
  cancelledCount: number;
}

/** What the foundation declares: the sum of the receipts still valid. */
export function totalsOf(rows: Receipt[]): YearTotals {
  const issued = rows.filter((r) => r.status === 'issued');
  return { issuedCount: issued.length, issuedCents: issued.reduce((s, r) => s + r.amount_cents, 0), cancelledCount: rows.length - issued.length };
}

export type CorrectionResult = { ok: true; receipt: Receipt } | { ok: false; error: string };

/** An Admin cancels a receipt; it stays in the register marked "annulé". */
export async function cancelReceipt(db: DB, actor: Actor, id: string, reason: string): Promise<CorrectionResult> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const row = await trx.updateTable('receipts').set({ status: 'cancelled', cancelled_at: now, cancel_reason: reason || 'Annulé' }).where('id', '=', id).where('status', '=', 'issued').returningAll().executeTakeFirst();
    if (!row) return { ok: false as const, error: 'Ce reçu est introuvable ou déjà annulé.' };
    await audit(trx, actor, 'receipt.cancel', row.number, { reason });
    return { ok: true as const, receipt: row };
  });
}

/**
 * Corrects a receipt: cancels it and issues a new one with the next number, the same gift(s) and
 * amount, and the corrected donor details (which the gift keeps too, unless the donor's data was
 * erased: an erased gift has no details, and gets none back; the register keeps its own copy).
 * The gift's copy is written by the ledger, its only writer (`keepOnGift`, in this transaction):
 * call this through donations/ledger.server.ts's correctReceipt.
 */
export async function correctReceiptWith(
  keepOnGift: (trx: DB, donationId: string, donor: TaxDetails) => Promise<void>,
  db: DB,
  actor: Actor,
  id: string,
  donor: TaxDetails,
  reason: string,
  now = new Date(),
): Promise<CorrectionResult> {
  return db.transaction().execute(async (trx) => {
    const ctx = await receiptContext(trx);
    if (!ctx.active) return { ok: false as const, error: 'Les reçus sont désactivés ou les paramètres incomplets.' };
    const at = now.toISOString();
    const old = await trx.updateTable('receipts').set({ status: 'cancelled', cancelled_at: at, cancel_reason: reason || 'Informations corrigées' }).where('id', '=', id).where('status', '=', 'issued').returningAll().executeTakeFirst();
    if (!old) return { ok: false as const, error: 'Ce reçu est introuvable ou déjà annulé.' };
    const ids = JSON.parse(old.donation_ids) as string[];
    // Stryker disable next-line ConditionalExpression: an annual receipt has no donation_id, and an update by a null id matches no row
    if (old.donation_id) await keepOnGift(trx, old.donation_id, donor);
    const receipt = await insertReceipt(trx, ctx, {
      kind: old.kind as 'gift' | 'annual',
      donationIds: ids,
      donor,
      donorEmail: old.donor_email,
      language: old.language,
      amountCents: old.amount_cents,
      paidAt: old.paid_at,
      method: old.method,
      issuedAt: at,
      replacesId: old.id,
      nature: old.nature,
      natureDescription: old.nature_description,
    });
    await audit(trx, actor, 'receipt.correct', old.number, { replacedBy: receipt.number, reason });
    return { ok: true as const, receipt };
  });
}

/** Details a receipt can print: a name (or an organisation's) and a full address. */
const printable = (d: TaxDetails | null): boolean => Boolean(d && (d.name || d.company) && d.address && d.postalCode && d.city);

/**
 * The annual statement of `year` (annual model): one receipt per donor and regime (ADR 035) summing that year's
 * confirmed monthly gifts (and, when the Admin chose so, the gifts imported without a receipt
 * number of their own) that no valid receipt covers yet, so a gift is never counted twice and
 * running it again issues nothing new. Serialized across instances by a lock.
 */
export async function issueAnnualStatements(db: DB, year: number, now = new Date()): Promise<Receipt[]> {
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, ANNUAL_LOCK);
    const ctx = await receiptContext(trx);
    if (!ctx.active || ctx.settings.model !== 'annual_monthly') return [];
    const from = parisYearStart(year);
    const to = parisYearStart(year + 1);
    const found = await trx
      .selectFrom('donations')
      .selectAll()
      .where('status', '=', 'succeeded')
      .where((eb) => {
        const monthly = eb.and([eb('frequency', '=', 'monthly'), eb('verifiable', '=', 1)]);
        // Gifts imported from another tool, as the Admin chooses (ADR 036): those that had no receipt there.
        return ctx.settings.annualCountsImported ? eb.or([monthly, eb.and([eb('import_id', 'is not', null), eb('external_receipt_number', 'is', null)])]) : monthly;
      })
      .where('succeeded_at', '>=', from)
      .where('succeeded_at', '<', to)
      .where('donor_email', 'is not', null)
      .where('eur_cents', 'is not', null)
      .where('tax_details', 'is not', null)
      .orderBy('succeeded_at')
      .execute();
    // An imported gift's details are the file's: summed only when a receipt can print them.
    const gifts = found.filter((g) => g.import_id === null || printable(parseTaxDetails(g.tax_details)));
    const valid = await trx.selectFrom('receipts').select(['donation_ids']).where('status', '=', 'issued').execute();
    const covered = new Set(valid.flatMap((r) => JSON.parse(r.donation_ids) as string[]));
    const byDonor = new Map<string, DonationTable[]>();
    // One statement per person of the donors register (ADR 038): the addresses of merged records sum together.
    const people = await peopleOfEmails(trx, gifts.map((g) => g.donor_email!));
    for (const g of gifts) {
      if (covered.has(g.id)) continue;
      // Stryker disable next-line MethodExpression: upper or lower case, one key per donor either way
      const email = g.donor_email!.toLowerCase();
      // One statement per regime and per person (ADR 035, ADR 038): two merged addresses are one donor.
      const key = `${regimeOf(parseTaxDetails(g.tax_details)!)} ${people.get(email) ?? email}`;
      byDonor.set(key, [...(byDonor.get(key) ?? []), g]);
    }
    const issued: Receipt[] = [];
    for (const list of byDonor.values()) {
      const last = list[list.length - 1];
      issued.push(await insertReceipt(trx, ctx, { kind: 'annual', ...annualSum(list), donor: parseTaxDetails(last.tax_details)!, donorEmail: last.donor_email, language: last.language, issuedAt: now.toISOString() }));
    }
    return issued;
  });
}

/** Records that a receipt went out with a mail that was itself claimed once (a gift's thank-you): no second claim. */
export async function recordSent(db: DB, id: string): Promise<void> {
  await db.updateTable('receipts').set({ sent_at: new Date().toISOString() }).where('id', '=', id).where('sent_at', 'is', null).execute();
}

/** Claims the right to mail a receipt on its own (an annual receipt): true exactly once. */
export async function claimSending(db: DB, id: string): Promise<boolean> {
  const row = await db.updateTable('receipts').set({ sent_at: new Date().toISOString() }).where('id', '=', id).where('sent_at', 'is', null).returning('id').executeTakeFirst();
  return Boolean(row);
}
