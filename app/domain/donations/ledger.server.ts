/**
 * The ledger of payments (ADR 019): the only module that writes the `donations` table and moves a
 * status (layout test), which is why it holds every write — attempts, provider moves and offline
 * records alike — and runs over 350 lines. The moves it allows are moves.ts' (shared, pure).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '~db/index';
import { isUniqueViolation, lockFor } from '~db/helpers';
import type { DonationTable } from '~db/schema';
import { audit } from '~/domain/audit/audit.server';
import { recordNewsletterConsent } from './consent.server';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import { cancelForRefund, correctReceiptWith, issueForGift, receiptContext, type CorrectionResult, type Receipt, type ReceiptContext } from '~/domain/receipts/register.server';
import type { Actor } from '~/domain/audit/audit.server';
import { toDecimalString } from '~/lib/currency';
import { SOURCES } from './moves';
import { DONATION_STATUSES, HAND_MEANS, instrumentColumns, NON_MONEY_MEANS, OFFLINE_REF_PREFIX, type DonationStatus, type HandMeans, type PaymentInstrument, type PaymentMeans, type ProviderName } from './status';

export type Donation = DonationTable;

export interface NewAttempt {
  provider: ProviderName;
  /** What the payment is for ('gift' when not said; ADR 019). */
  purpose?: string;
  amountMinor: number;
  currency: string;
  eurCents: number | null;
  frequency: 'once' | 'monthly';
  language: string;
  donorName?: string | null;
  donorEmail?: string | null;
  verifiable?: boolean;
  callbackTokenHash?: string | null;
  /** Known up front (Flutterwave's tx_ref is ours); otherwise `attempt:{id}` until the provider answers. */
  providerRef?: string;
  secondaryRef?: string | null;
  /** What a tax receipt needs (JSON, see domain/receipts); null when the donor wants none. */
  taxDetails?: string | null;
  /** Designation, fees covered and dedication (campaigns, migration 009). */
  gift?: GiftDetails;
  /** "Recevoir des nouvelles de la fondation" ticked: a dated consent is recorded with the attempt (ADR 013). */
  newsletter?: boolean;
  /** What it is paid with, when the provider reported it (a renewal's is its first gift's). */
  instrument?: PaymentInstrument;
}

/** What a gift carries besides its amount: chosen on the form, stored at attempt creation, never taken from a provider. */
export interface GiftDetails {
  campaignId?: string | null;
  /** The part of eur_cents added to cover processing fees. */
  feeEurCents?: number;
  dedication?: { kind: 'honor' | 'memory'; name: string; message: string | null; email: string | null } | null;
}

function giftColumns(g: GiftDetails | undefined) {
  return {
    campaign_id: g?.campaignId ?? null,
    fee_eur_cents: g?.feeEurCents ?? 0,
    dedication_kind: g?.dedication?.kind ?? null,
    dedication_name: g?.dedication?.name ?? null,
    dedication_message: g?.dedication?.message ?? null,
    dedication_email: g?.dedication?.email ?? null,
    dedication_sent_at: null,
  };
}

/** A payment of ours, not imported from another tool (ADR 036). */
const NOT_IMPORTED = { import_id: null, source: null, source_ref: null, external_receipt_number: null } as const;

/**
 * Records a payment attempt as pending, before the provider is called, with the news consent when
 * the donor ticked it (one path for every method: the consent never depends on which form).
 */
export async function createAttempt(db: DB, a: NewAttempt): Promise<Donation> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const row: Donation = {
    id,
    provider: a.provider,
    purpose: a.purpose ?? 'gift',
    provider_ref: a.providerRef ?? `attempt:${id}`,
    amount_minor: a.amountMinor,
    currency: a.currency,
    eur_cents: a.eurCents,
    secondary_ref: null,
    frequency: a.frequency,
    status: 'pending',
    verifiable: a.verifiable === false ? 0 : 1,
    donor_name: a.donorName ?? null,
    donor_email: a.donorEmail ?? null,
    language: a.language,
    callback_token_hash: a.callbackTokenHash ?? null,
    error: null,
    receipt_sent_at: null,
    succeeded_at: null,
    created_at: now,
    updated_at: now,
    tax_details: a.taxDetails ?? null,
    ...giftColumns(a.gift),
    ...instrumentColumns(a.instrument),
    ...NOT_IMPORTED,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('donations').values(row).execute();
    if (a.newsletter) await recordNewsletterConsent(trx, id);
  });
  return row;
}

/** The provider's reference, once it gave one (session, order). */
export async function setProviderRef(db: DB, id: string, ref: string): Promise<void> {
  await db.updateTable('donations').set({ provider_ref: ref, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
}

/** A reference the provider gave later (a payment intent), kept when the attempt had none. */
export async function setSecondaryRef(db: DB, id: string, ref: string): Promise<void> {
  await db.updateTable('donations').set({ secondary_ref: ref }).where('id', '=', id).where('secondary_ref', 'is', null).execute();
}

export async function findByRef(db: DB, provider: ProviderName, ref: string): Promise<Donation | undefined> {
  return db.selectFrom('donations').selectAll().where('provider', '=', provider).where('provider_ref', '=', ref).executeTakeFirst();
}

export async function findBySecondaryRef(db: DB, provider: ProviderName, ref: string): Promise<Donation | undefined> {
  return db.selectFrom('donations').selectAll().where('provider', '=', provider).where('secondary_ref', '=', ref).orderBy('created_at').executeTakeFirst();
}

export async function findById(db: DB, id: string): Promise<Donation | undefined> {
  return db.selectFrom('donations').selectAll().where('id', '=', id).executeTakeFirst();
}

export { ALLOWED_TRANSITIONS, canTransition, sourcesOf } from './moves';

export interface Transition {
  /** Set when the move happened now; undefined when the donation was already there (a replay) or may not move. */
  donation?: Donation;
  changed: boolean;
  /** The tax receipt issued by this move (to succeeded), if any. */
  receipt?: Receipt | null;
  /** Receipts this move (a refund) cancelled. */
  cancelledReceipts?: Receipt[];
  /** The corrected annual receipts it issued in their place (the donor's other gifts of the year). */
  reissuedReceipts?: Receipt[];
}

/**
 * What numbering a receipt needs, read before a transaction: the one the caller's request read
 * (DonationDeps.receipts), or read now.
 */
const receiptsFor = (db: DB, given: ReceiptContext | undefined): Promise<ReceiptContext> => (given ? Promise.resolve(given) : receiptContext(db));

/**
 * Moves a donation to `to` if, and only if, its current status allows it: one conditional UPDATE,
 * so concurrent or replayed events change it once. Extra fields (donor, error) ride along; the
 * donor's name and address only where the attempt has none; `receiptReason` is why a refund
 * cancels receipts (a lost dispute's own words; "Don remboursé" when not said); `instrument`, what
 * the payer paid with (a debit's account and mandate).
 * `receipts`: the receipt context the request read (read here, before the transaction, when absent).
 */
export async function transition(
  db: DB,
  where: { id: string } | { provider: ProviderName; ref: string },
  to: DonationStatus,
  extra: { donorName?: string | null; donorEmail?: string | null; error?: string | null; secondaryRef?: string | null; receiptReason?: string; instrument?: PaymentInstrument | null } = {},
  receipts?: ReceiptContext,
): Promise<Transition> {
  const now = new Date().toISOString();
  const ctx = await receiptsFor(db, receipts);
  let q = db
    .updateTable('donations')
    .set({
      status: to,
      updated_at: now,
      ...(to === 'succeeded' ? { succeeded_at: now } : {}),
      // The provider's name and address fill in what the attempt lacks (a card or PayPal donor gives
      // them there); those given on our form (a member's, a mobile money donor's) stand.
      ...(extra.donorName ? { donor_name: sql<string>`coalesce(donor_name, ${extra.donorName})` } : {}),
      ...(extra.donorEmail ? { donor_email: sql<string>`coalesce(donor_email, ${extra.donorEmail})` } : {}),
      ...(extra.error !== undefined ? { error: extra.error } : {}),
      ...(extra.secondaryRef ? { secondary_ref: extra.secondaryRef } : {}),
      // What it was paid with (ADR 029), as the provider's verified answer says.
      ...(extra.instrument ? instrumentColumns(extra.instrument) : {}),
    })
    .where('status', 'in', [...SOURCES[to]]);
  q = 'id' in where ? q.where('id', '=', where.id) : q.where('provider', '=', where.provider).where('provider_ref', '=', where.ref);
  // One transaction: the move, its receipt number (or the receipt's cancellation) and the activity
  // line commit together or not at all; a replay matches no row and so never takes a number.
  return db.transaction().execute(async (trx) => {
    const donation = await (trx.executeQuery(q.returningAll().compile()).then((r) => r.rows[0] as Donation | undefined));
    if (!donation) return { donation, changed: false };
    const receipt = donation.status === 'succeeded' ? await issueForGift(trx, ctx, donation) : null;
    const refund = donation.status === 'refunded' ? await cancelForRefund(trx, ctx, donation.id, now, extra.receiptReason) : { cancelled: [], reissued: [] };
    await recordActivity(trx, donation);
    return { donation, changed: true, receipt, cancelledReceipts: refund.cancelled, reissuedReceipts: refund.reissued };
  });
}

const ACTIVITY: Partial<Record<DonationStatus, string>> = { succeeded: 'donation.succeeded', refunded: 'donation.refunded' };

/** Confirmed and refunded gifts appear in the dashboard's 'Activité Récente' (the audit log). */
async function recordActivity(db: DB, d: Donation): Promise<void> {
  const action = ACTIVITY[d.status as DonationStatus];
  if (!action) return;
  await audit(db, { id: null, name: 'Paiement en ligne' }, action, `${toDecimalString(d.amount_minor, d.currency)} ${d.currency} (${d.provider})`, {
    donation: d.id,
    frequency: d.frequency,
  });
}

/**
 * A donation the provider reports on its own (a monthly renewal's invoice): inserted already
 * succeeded, once per provider reference.
 */
export async function recordSucceeded(db: DB, a: NewAttempt & { providerRef: string }, receipts?: ReceiptContext): Promise<Transition> {
  return recordFromProvider(db, a, 'succeeded', receipts);
}

/** A row inserted already settled (a provider's own report, an Admin's record), written `at`. */
function rowOf(a: Omit<NewAttempt, 'provider'> & { provider: PaymentMeans; providerRef: string }, status: 'succeeded' | 'failed', at: string, succeededAt = at): Donation {
  return {
    id: randomUUID(),
    provider: a.provider,
    purpose: a.purpose ?? 'gift',
    provider_ref: a.providerRef,
    amount_minor: a.amountMinor,
    currency: a.currency,
    eur_cents: a.eurCents,
    secondary_ref: a.secondaryRef ?? null,
    frequency: a.frequency,
    status,
    verifiable: 1,
    donor_name: a.donorName ?? null,
    donor_email: a.donorEmail ?? null,
    language: a.language,
    callback_token_hash: null,
    error: null,
    receipt_sent_at: null,
    succeeded_at: status === 'succeeded' ? succeededAt : null,
    created_at: at,
    updated_at: at,
    tax_details: a.taxDetails ?? null,
    ...giftColumns(a.gift),
    ...instrumentColumns(a.instrument),
    ...NOT_IMPORTED,
  };
}

/** Same, for what the provider reports as succeeded or failed (a monthly instalment it could not charge). */
export async function recordFromProvider(db: DB, a: NewAttempt & { providerRef: string }, status: 'succeeded' | 'failed', receipts?: ReceiptContext): Promise<Transition> {
  const now = new Date().toISOString();
  const ctx = await receiptsFor(db, receipts);
  try {
    const insert = db
      .insertInto('donations')
      .values(rowOf(a, status, now))
      .returningAll()
      .compile();
    return await db.transaction().execute(async (trx) => {
      const donation = (await trx.executeQuery(insert)).rows[0] as Donation;
      const receipt = await issueForGift(trx, ctx, donation);
      await recordActivity(trx, donation);
      return { donation, changed: true, receipt };
    });
  } catch (e) {
    if (isUniqueViolation(e)) return { changed: false };
    throw e;
  }
}

/**
 * A monthly gift already running at the provider, adopted when the foundation moved in (ADR 037):
 * its starting row, status `adopted` (no money, no receipt, no move), keyed by the subscription
 * (`adopted:{id}`), written in one transaction with `link` (the gift's own record and audit line).
 * Adopting it again writes nothing: `changed: false`.
 */
export async function recordAdopted(db: DB, a: NewAttempt & { secondaryRef: string; startedAt: string }, link: (trx: DB, d: Donation) => Promise<void>): Promise<Transition> {
  const row: Donation = { ...rowOf({ ...a, providerRef: `adopted:${a.secondaryRef}` }, 'failed', a.startedAt), status: 'adopted', updated_at: new Date().toISOString() };
  try {
    return await db.transaction().execute(async (trx) => {
      const donation = (await trx.insertInto('donations').values(row).returningAll().executeTakeFirstOrThrow()) as Donation;
      await link(trx, donation);
      return { donation, changed: true };
    });
  } catch (e) {
    if (isUniqueViolation(e)) return { changed: false };
    throw e;
  }
}

/** Money an Admin received by hand (cash, cheque, transfer), or a gift not in money (ADR 030): what the record needs besides a payment's own fields. */
export interface OfflinePayment extends Omit<NewAttempt, 'provider' | 'providerRef' | 'secondaryRef' | 'verifiable' | 'callbackTokenHash'> {
  means: HandMeans;
  /** What a gift not in money is (goods, expenses waived), as its receipt prints it beside "Nature du don". */
  description?: string;
  /** The form's one-time token: the payment's key, so a second submission of the same form records nothing. */
  token: string;
  /** The day the money was received (AAAA-MM-JJ): the payment's date, and its receipt's. */
  receivedOn: string;
  /** A cheque's number, a transfer's label ('' for none). */
  reference: string;
  note: string;
}

/**
 * Records an offline payment as succeeded on an Admin's act (ADR 019): no provider will ever
 * confirm it, so the Admin's word is the verified answer, and the act is audited under their name.
 * One transaction: the row, its receipt number (when it carries tax details), the audit line and
 * `link` (the purpose's own record, e.g. the membership it pays) commit together. Keyed by the
 * form's token: a replayed submission answers `changed: false` and writes nothing.
 */
export async function recordOffline(db: DB, actor: Actor, a: OfflinePayment, link: (trx: DB, d: Donation) => Promise<void>, receipts?: ReceiptContext): Promise<Transition> {
  const ctx = await receiptsFor(db, receipts);
  // Paid at noon UTC of the day received: the same day in Paris, where periods and receipts are dated.
  const paidAt = `${a.receivedOn}T12:00:00.000Z`;
  const key = `${OFFLINE_REF_PREFIX}${a.token}`;
  try {
    return await db.transaction().execute(async (trx) => {
      await lockFor(trx, key);
      const donation = (await trx
        .insertInto('donations')
        .values(rowOf({ ...a, provider: a.means, providerRef: key, secondaryRef: a.reference || null }, 'succeeded', new Date().toISOString(), paidAt))
        .returningAll()
        .executeTakeFirstOrThrow()) as Donation;
      // The key is unique per means; the same form sent again with another means is refused too
      // (written first, read after, under the key's lock: see dues.server.ts on SQLite's lock).
      const same = await trx.selectFrom('donations').select('id').where('provider_ref', '=', key).execute();
      if (same.length > 1) throw new AlreadyRecorded();
      const receipt = await issueForGift(trx, ctx, donation, a.description);
      await link(trx, donation);
      await audit(trx, actor, 'donation.recorded', `${toDecimalString(donation.amount_minor, donation.currency)} ${donation.currency} (${a.means})`, {
        donation: donation.id,
        purpose: donation.purpose,
        receivedOn: a.receivedOn,
        reference: a.reference,
        note: a.note,
      });
      return { donation, changed: true, receipt };
    });
  } catch (e) {
    if (isUniqueViolation(e) || e instanceof AlreadyRecorded) return { changed: false };
    throw e;
  }
}

class AlreadyRecorded extends Error {}

/**
 * An Admin takes back a payment they recorded by hand (a mistyped amount, a cheque that bounced):
 * the payment moves from succeeded to cancelled — only a record made by hand (money, goods, expenses waived), no
 * provider's verified one —, its receipt is cancelled with the reason (corrected annual receipts
 * reissued, as on a refund) and the act is audited under the Admin's name, in one transaction.
 * A second submission finds nothing to move and changes nothing.
 */
export async function voidOffline(db: DB, actor: Actor, id: string, reason: string, receipts?: ReceiptContext): Promise<Transition> {
  const now = new Date().toISOString();
  const ctx = await receiptsFor(db, receipts);
  return db.transaction().execute(async (trx) => {
    const donation = (await trx
      .updateTable('donations')
      .set({ status: 'cancelled', updated_at: now, error: reason })
      .where('id', '=', id)
      .where('status', '=', 'succeeded')
      .where('provider', 'in', [...HAND_MEANS])
      .returningAll()
      .executeTakeFirst()) as Donation | undefined;
    if (!donation) return { changed: false };
    const cancelled = await cancelForRefund(trx, ctx, donation.id, now, `Saisie annulée : ${reason}`);
    await audit(trx, actor, 'donation.voided', `${toDecimalString(donation.amount_minor, donation.currency)} ${donation.currency} (${donation.provider})`, { donation: donation.id, purpose: donation.purpose, reason });
    return { donation, changed: true, cancelledReceipts: cancelled.cancelled, reissuedReceipts: cancelled.reissued };
  });
}

/** Claims the right to send a donation's receipt: true exactly once per donation. */
export async function claimReceipt(db: DB, id: string): Promise<boolean> {
  const row = await db
    .updateTable('donations')
    .set({ receipt_sent_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'succeeded')
    .where('receipt_sent_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Whether the provider has named this attempt (its reference is no longer our `attempt:{id}` placeholder): only then can it be asked about it. */
export const providerNamed = (d: Pick<Donation, 'provider_ref'>): boolean => !d.provider_ref.startsWith('attempt:');

/** Verifiable attempts still pending, created between `newerThan` and `olderThan` (re-checked with their provider). */
export async function pendingAttempts(db: DB, olderThan: string, newerThan: string, limit = 50): Promise<Donation[]> {
  return db
    .selectFrom('donations')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '>=', newerThan)
    .where('verifiable', '=', 1)
    .where('created_at', '<', olderThan)
    .where('provider_ref', 'not like', 'attempt:%')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Euros given (succeeded, not refunded) since an instant: money only, goods and waived expenses apart (ADR 030). */
export async function succeededEurCentsSince(db: DB, since: string): Promise<number> {
  const row = await db
    .selectFrom('donations')
    .select(sql<number>`coalesce(sum(eur_cents), 0)`.as('total'))
    .where('status', '=', 'succeeded')
    .where('provider', 'not in', [...NON_MONEY_MEANS])
    .where('succeeded_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface DonationFilters {
  from?: string;
  to?: string;
  provider?: PaymentMeans;
  /** The provider's payment method is, or is not (or none reported), this one (ADR 029: SEPA apart from cards). */
  method?: string;
  notMethod?: string;
  status?: DonationStatus;
  campaignId?: string;
}

export async function listDonations(db: DB, f: DonationFilters, limit = 500): Promise<Donation[]> {
  let q = db.selectFrom('donations').selectAll();
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<', f.to);
  if (f.provider) q = q.where('provider', '=', f.provider);
  if (f.method) q = q.where('method', '=', f.method);
  if (f.notMethod) q = q.where((eb) => eb.or([eb('method', 'is', null), eb('method', '!=', f.notMethod!)]));
  if (f.status) q = q.where('status', '=', f.status);
  if (f.campaignId) q = q.where('campaign_id', '=', f.campaignId);
  return q.orderBy('created_at', 'desc').limit(limit).execute();
}

/** Claims the right to notify a dedication's recipient: true exactly once per succeeded gift that names one. */
export async function claimDedicationNotice(db: DB, id: string): Promise<boolean> {
  const row = await db
    .updateTable('donations')
    .set({ dedication_sent_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'succeeded')
    .where('dedication_email', 'is not', null)
    .where('dedication_sent_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * An Admin corrects a receipt (receipts/register.server.ts): the gift keeps the corrected details
 * too, in the same transaction, unless its donor's data was erased (an erased gift gets none back).
 */
export async function correctReceipt(db: DB, actor: Actor, id: string, donor: TaxDetails, reason: string, now = new Date()): Promise<CorrectionResult> {
  return correctReceiptWith(
    async (trx, donationId, details) => {
      await trx.updateTable('donations').set({ tax_details: JSON.stringify(details) }).where('id', '=', donationId).where('tax_details', 'is not', null).execute();
    },
    db,
    actor,
    id,
    donor,
    reason,
    now,
  );
}

/** Erasure (ADR 013): these gifts keep their amounts and statuses, and lose every personal detail. Answers how many. */
export async function eraseGiftDetails(db: DB, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await db
    .updateTable('donations')
    .set({ donor_name: null, donor_email: null, tax_details: null, dedication_kind: null, dedication_name: null, dedication_message: null, dedication_email: null, account_last4: null, mandate_ref: null })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Retention (ADR 013): attempts never paid (pending or cancelled) created before `cutoff` are deleted. Answers how many. */
export async function deleteStaleAttempts(db: DB, cutoff: string): Promise<number> {
  return Number((await db.deleteFrom('donations').where('status', 'in', ['pending', 'cancelled']).where('created_at', '<', cutoff).executeTakeFirst()).numDeletedRows);
}

/** A gift imported from another tool (ADR 036): already settled there, keyed there by `source` and `sourceRef`. */
export interface ImportedGift {
  importId: string;
  source: string;
  sourceRef: string;
  /** Stored as a payment by that means is (means.ts `storedAs`), with its method where it names the means. */
  provider: PaymentMeans;
  method: string | null;
  at: string;
  amountCents: number;
  status: 'succeeded' | 'refunded' | 'failed';
  donorName: string | null;
  donorEmail: string | null;
  language: string;
  taxDetails: string | null;
  campaignId: string | null;
  externalReceiptNumber: string | null;
}

/**
 * Writes imported gifts as they were (ADR 036): never through a move, so no receipt is numbered,
 * no activity line, no event (no thank-you mail); not verifiable (no provider is asked about them,
 * no receipt of ours ever covers them). A gift whose source and reference are already here is
 * skipped: the same file twice adds nothing. Answers how many were written.
 */
export async function recordImportedGifts(db: DB, gifts: ImportedGift[]): Promise<number> {
  if (!gifts.length) return 0;
  const now = new Date().toISOString();
  const rows = gifts.map((g) => ({
    ...rowOf(
      { provider: g.provider, providerRef: `import:${g.source}:${g.sourceRef}`, amountMinor: g.amountCents, currency: 'EUR', eurCents: g.amountCents, frequency: 'once', language: g.language, donorName: g.donorName, donorEmail: g.donorEmail, taxDetails: g.taxDetails, gift: { campaignId: g.campaignId }, instrument: g.method ? { method: g.method } : undefined },
      g.status === 'succeeded' ? 'succeeded' : 'failed',
      g.at,
      g.at,
    ),
    status: g.status,
    succeeded_at: g.status === 'failed' ? null : g.at,
    verifiable: 0,
    updated_at: now,
    import_id: g.importId,
    source: g.source,
    source_ref: g.sourceRef,
    external_receipt_number: g.externalReceiptNumber,
  }));
  let written = 0;
  // As many rows a statement as SQLite's bound on its parameters allows (32 766; PostgreSQL's is
  // 65 535): fewer, larger statements cost less (ADR 036's measure: about 13 % of the inserts' CPU).
  const perStatement = Math.max(1, Math.floor(32_000 / Object.keys(rows[0]).length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    written += (await db.insertInto('donations').values(chunk).onConflict((oc) => oc.columns(['source', 'source_ref']).doNothing()).returning('id').execute()).length;
  }
  return written;
}

/**
 * Takes back one import's gifts (its rows only; the caller checks nothing depends on them, in its
 * transaction). Answers how many, and the donors' addresses they carried (lowercased, once each):
 * a deleted row raises no `updated_at`, so whoever sums gifts per address must be told (ADR 038).
 */
export async function deleteImportedGifts(db: DB, importId: string): Promise<{ count: number; emails: string[] }> {
  const rows = await db.deleteFrom('donations').where('import_id', '=', importId).returning('donor_email').execute();
  return { count: rows.length, emails: [...new Set(rows.flatMap((r) => (r.donor_email ? [r.donor_email.toLowerCase()] : [])))] };
}
