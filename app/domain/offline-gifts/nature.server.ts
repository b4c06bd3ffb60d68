/**
 * Gifts in kind and waived expenses (issue 41, ADR 030): recorded by staff through the ledger's one
 * road for what is received by hand (`recordOfflinePayment`, means `in_kind` or `waived_expenses`,
 * the valuation as its euro value), its receipt numbered in the same transaction with its nature and
 * description; this area's row (`offline_gifts`: nature, description, valuation) and the evidence
 * (`gift_evidence`) are written by the ledger's `link` in that transaction, so a gift, its receipt
 * and its evidence commit together or not at all. The evidence is checked by its content (PDF, JPEG
 * or PNG, 5 Mo at most) before anything is written, and is kept in the database: never in the
 * public media storage, read only through the back office's download.
 */
import { receiptOffer } from '~/domain/receipts/settings.server';
import type { DB } from '~db/index';
import type { Actor } from '~/domain/audit/audit.server';
import type { DonationDeps } from '~/domain/donations/context.server';
import { recordOfflinePayment } from '~/domain/donations/payments.server';
import { checkFile } from '~/domain/media/check.server';
import { MB } from '~/domain/media/media';
import { natureOfMeans } from '~/domain/receipts/nature';
import type { FieldErrors } from '~/lib/form-errors';
import { handGift, receiptDetails, type RecordResult } from './gifts.server';
import { receiptDescription, type NatureEntry } from './nature-form';
import { SCALE_NAME } from './mileage';

/** The largest evidence file. */
export const EVIDENCE_MAX_BYTES = 5 * MB;
const EVIDENCE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];

export interface Evidence {
  fileName: string;
  data: Buffer;
}

export type EvidenceCheck = { ok: true; mime: string } | { ok: false; error: string };

/** The evidence as sent: present, within its limit, and a PDF, JPEG or PNG by its content (never by its name). */
export async function checkEvidence(e: Evidence | null): Promise<EvidenceCheck> {
  if (!e || e.data.length === 0) return { ok: false, error: 'Joignez le justificatif (facture, note de frais, renonciation) : PDF, JPEG ou PNG.' };
  if (e.data.length > EVIDENCE_MAX_BYTES) return { ok: false, error: `${e.fileName} dépasse 5 Mo : réduisez-le ou numérisez-le en plus basse résolution.` };
  const check = await checkFile(e.fileName, e.data);
  if (!check.ok) return { ok: false, error: check.message };
  if (!EVIDENCE_TYPES.includes(check.mime)) return { ok: false, error: `${e.fileName} n’est ni un PDF, ni une image JPEG ou PNG.` };
  return { ok: true, mime: check.mime };
}

/** A name fit to show and to offer on download: no path, no control or quoting character. */
export function safeFileName(name: string, mime: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[^\p{L}\p{N} ._()-]/gu, '').trim().slice(0, 120);
  const ext = mime === 'application/pdf' ? '.pdf' : mime === 'image/png' ? '.png' : '.jpg';
  return base ? (base.toLowerCase().endsWith(ext) ? base : `${base}${ext}`) : `justificatif${ext}`;
}

/**
 * Records a gift in kind or waived expenses with its evidence. Nothing is written when a field or
 * the evidence is refused (`invalid`, French messages by field); a second submission of the same
 * form (its token) records nothing (`already`).
 */
export async function recordNatureGift(deps: DonationDeps, actor: Actor, v: NatureEntry, evidence: Evidence | null): Promise<RecordResult> {
  const errors: FieldErrors = {};
  const details = receiptDetails(v, (await receiptOffer(deps.db)).ifi);
  if (!details.ok) Object.assign(errors, details.errors);
  const file = await checkEvidence(evidence);
  if (!file.ok) errors.evidence = file.error;
  if (!details.ok || !file.ok || !evidence) return { status: 'invalid', errors };
  const nature = natureOfMeans(v.means);
  const mileage = v.basis === 'mileage';
  const t = await recordOfflinePayment(
    deps,
    actor,
    {
      purpose: 'gift',
      means: v.means,
      token: v.token,
      receivedOn: v.received_on,
      reference: '',
      note: v.note,
      description: receiptDescription(v),
      ...handGift(v, v.amountCents, details.json),
      gift: { campaignId: null },
    },
    async (trx, payment) => {
      const now = new Date().toISOString();
      await trx
        .insertInto('offline_gifts')
        .values({
          payment_id: payment.id,
          batch_id: null,
          nature,
          bank: null,
          drawer: null,
          recorded_by: actor.name,
          created_at: now,
          description: v.description,
          valuation_basis: v.basis,
          basis_detail: mileage ? SCALE_NAME : v.basis_detail || null,
          km: v.km,
          horsepower: v.horsepower,
          electric: mileage ? Number(v.electric) : null,
          waiver_signed: v.means === 'waived_expenses' ? Number(v.waiver) : null,
        })
        .execute();
      await trx
        .insertInto('gift_evidence')
        .values({ payment_id: payment.id, file_name: safeFileName(evidence.fileName, file.mime), mime: file.mime, bytes: evidence.data.length, data_base64: evidence.data.toString('base64'), created_at: now })
        .execute();
    },
  );
  return t.changed && t.donation ? { status: 'recorded', payment: t.donation } : { status: 'already' };
}

/** The evidence of a gift, for the back office's download; undefined when none. */
export async function evidenceOf(db: DB, paymentId: string): Promise<{ fileName: string; mime: string; data: Buffer } | undefined> {
  const row = await db.selectFrom('gift_evidence').select(['file_name', 'mime', 'data_base64']).where('payment_id', '=', paymentId).executeTakeFirst();
  return row && { fileName: row.file_name, mime: row.mime, data: Buffer.from(row.data_base64, 'base64') };
}
