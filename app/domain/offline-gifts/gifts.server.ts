/**
 * Gifts received by post or at the bank (issue 41, ADR 028): a cheque typed into a batch, a
 * transfer or cash one by one. Each goes through the ledger's one road for money received by hand
 * (`recordOfflinePayment`: the row written succeeded on the staff member's word, its receipt
 * numbered in the same transaction as the receiving settings say, the audit line), with this
 * area's own row (`offline_gifts`: batch, bank, drawer, nature) written in that same transaction;
 * then the same `payment.succeeded` event as a gift made online (thank-you mail with the receipt
 * when the donor has an e-mail, campaign totals). Taking one back is the ledger's `voidOffline`
 * (receipt cancelled, annual receipt corrected, audited).
 */
import type { DB } from '~db/index';
import type { Actor } from '~/domain/audit/audit.server';
import type { DonationDeps } from '~/domain/donations/context.server';
import type { Donation } from '~/domain/donations/ledger.server';
import { recordOfflinePayment, voidOfflinePayment } from '~/domain/donations/payments.server';
import { designated } from '~/domain/giving/choices.server';
import { FIELD_LABEL, readTaxDetails, type TaxField } from '~/domain/receipts/donor-details';
import { receiptOffer } from '~/domain/receipts/settings.server';
import { messagesFor } from '~/lib/i18n.server';
import { translate } from '~/lib/i18n';
import type { FieldErrors } from '~/lib/form-errors';
import { lockFor } from '~db/helpers';
import { isOpen } from './totals';
import { batchLock } from './batches.server';
import { TAX_FIELD_OF, taxFieldsOf, type DonorEntry, type GiftEntry } from './forms';

/** The batch is no longer open (deposited meanwhile): the cheque is not recorded. */
export class BatchClosed extends Error {}

export type RecordResult = { status: 'recorded'; payment: Donation } | { status: 'already' } | { status: 'invalid'; errors: FieldErrors };

const fr = messagesFor('fr');

/** The receipt's donor details as the receipts' own rule reads them (the IFI option counted when `ifi`: the foundation is eligible), its messages keyed by the entry form's fields. */
export function receiptDetails(v: DonorEntry, ifi = false): { ok: true; json: string | null } | { ok: false; errors: FieldErrors } {
  const r = readTaxDetails(taxFieldsOf(v), { ifi });
  if (r.ok) return { ok: true, json: r.details && JSON.stringify(r.details) };
  const errors: FieldErrors = {};
  for (const e of r.errors) {
    const field = TAX_FIELD_OF[e.field as TaxField] ?? 'name';
    errors[field] ??= translate(fr, e.key, { field: translate(fr, FIELD_LABEL[e.field]) });
  }
  return { ok: false, errors };
}

/**
 * What every gift typed by hand records, whatever its means or nature: a one-off gift of `cents`
 * euros, the donor as typed (a company by its name), its receipt's details, the back office's
 * language (French).
 */
export const handGift = (v: Pick<DonorEntry, 'company' | 'name' | 'email'>, cents: number, taxDetails: string | null) =>
  ({ amountMinor: cents, currency: 'EUR', eurCents: cents, frequency: 'once', language: 'fr', donorName: v.company || v.name, donorEmail: v.email.toLowerCase() || null, taxDetails }) as const;

/**
 * Records one gift received by hand. `batchId`: the cheque's batch, which must still be open when
 * the transaction commits (else BatchClosed and nothing is written). A second submission of the
 * same form (its token) records nothing: `already`.
 */
export async function recordOfflineGift(deps: DonationDeps, actor: Actor, v: GiftEntry, batchId: string | null): Promise<RecordResult> {
  const details = receiptDetails(v, (await receiptOffer(deps.db)).ifi);
  if (!details.ok) return { status: 'invalid', errors: details.errors };
  const campaign = await designated(deps.db, v.campaign_id, 'fr');
  if (!campaign.ok) return { status: 'invalid', errors: { campaign_id: translate(fr, campaign.error, campaign.vars) } };
  const cheque = v.means === 'cheque';
  const t = await recordOfflinePayment(
    deps,
    actor,
    {
      purpose: 'gift',
      means: v.means,
      token: v.token,
      receivedOn: v.received_on,
      reference: cheque ? v.cheque_number : v.reference,
      note: v.note,
      ...handGift(v, v.amount, details.json),
      gift: { campaignId: campaign.campaign?.id ?? null },
    },
    async (trx, payment) => {
      if (batchId) {
        // Taken in turn with the batch's deposit (batches.server.ts): no cheque enters a batch being deposited.
        await lockFor(trx, batchLock(batchId));
        const batch = await trx.selectFrom('gift_batches').select('status').where('id', '=', batchId).executeTakeFirst();
        if (!batch || !isOpen(batch.status)) throw new BatchClosed();
      }
      await trx
        .insertInto('offline_gifts')
        .values({
          payment_id: payment.id,
          batch_id: batchId,
          nature: 'numeraire',
          bank: cheque ? v.bank : null,
          drawer: cheque ? v.drawer || v.company || v.name : null,
          recorded_by: actor.name,
          created_at: new Date().toISOString(),
        })
        .execute();
    },
  );
  return t.changed && t.donation ? { status: 'recorded', payment: t.donation } : { status: 'already' };
}

/**
 * Takes back a gift recorded by hand (a mistyped amount, a cheque returned unpaid), with a reason:
 * only one of this area's gifts (`offline_gifts`), never a dues payment or a provider's. False when
 * there was nothing to take back (unknown, already taken back).
 */
export async function voidOfflineGift(deps: DonationDeps, actor: Actor, paymentId: string, reason: string): Promise<boolean> {
  const own = await deps.db.selectFrom('offline_gifts').select('payment_id').where('payment_id', '=', paymentId).executeTakeFirst();
  if (!own) return false;
  return (await voidOfflinePayment(deps, actor, paymentId, reason)).changed;
}

export interface OfflineGiftLine {
  paymentId: string;
  batchId: string | null;
  means: string;
  amountCents: number;
  status: string;
  receivedOn: string;
  donorName: string;
  donorEmail: string;
  reference: string;
  bank: string;
  drawer: string;
  recordedBy: string;
  /** The reason it was taken back ('' while it counts). */
  voidReason: string;
  receiptNumber: string;
  receiptStatus: string;
  /** A gift not in money (ADR 030): its nature, what it is, its valuation's basis and detail, its evidence's file name ('' for none). */
  nature: string;
  description: string;
  basis: string;
  basisDetail: string;
  evidence: string;
}

/**
 * Gifts of a batch (its cheques in the order typed), or the latest gifts typed one by one (`batchId`
 * null): money (transfers and cash), or with `notMoney` the gifts in kind and waived expenses.
 */
export async function offlineGiftLines(db: DB, batchId: string | null, limit = 500, notMoney = false): Promise<OfflineGiftLine[]> {
  let q = db
    .selectFrom('offline_gifts as o')
    .innerJoin('donations as d', 'd.id', 'o.payment_id')
    .leftJoin('receipts as r', (j) => j.onRef('r.donation_id', '=', 'o.payment_id'))
    .leftJoin('gift_evidence as e', 'e.payment_id', 'o.payment_id')
    .where('o.nature', notMoney ? '<>' : '=', 'numeraire')
    .select(['o.nature', 'o.description', 'o.valuation_basis', 'o.basis_detail', 'e.file_name'])
    .select(['o.payment_id', 'o.batch_id', 'o.bank', 'o.drawer', 'o.recorded_by', 'o.created_at', 'd.provider', 'd.amount_minor', 'd.status', 'd.succeeded_at', 'd.donor_name', 'd.donor_email', 'd.secondary_ref', 'd.error', 'r.number', 'r.status as receipt_status']);
  q = batchId ? q.where('o.batch_id', '=', batchId).orderBy('o.created_at', 'asc') : q.where('o.batch_id', 'is', null).orderBy('o.created_at', 'desc');
  const rows = await q.orderBy('r.issued_at', 'desc').limit(limit).execute();
  const lines = new Map<string, OfflineGiftLine>();
  for (const r of rows) {
    // A corrected receipt leaves the cancelled one beside the new: the latest is shown.
    if (lines.has(r.payment_id)) continue;
    lines.set(r.payment_id, {
      paymentId: r.payment_id,
      batchId: r.batch_id,
      means: r.provider,
      amountCents: r.amount_minor,
      status: r.status,
      receivedOn: (r.succeeded_at ?? r.created_at).slice(0, 10),
      donorName: r.donor_name ?? '',
      donorEmail: r.donor_email ?? '',
      reference: r.secondary_ref ?? '',
      bank: r.bank ?? '',
      drawer: r.drawer ?? '',
      recordedBy: r.recorded_by,
      voidReason: r.status === 'cancelled' ? (r.error ?? '') : '',
      receiptNumber: r.number ?? '',
      receiptStatus: r.receipt_status ?? '',
      nature: r.nature,
      description: r.description ?? '',
      basis: r.valuation_basis ?? '',
      basisDetail: r.basis_detail ?? '',
      evidence: r.file_name ?? '',
    });
  }
  return [...lines.values()];
}
