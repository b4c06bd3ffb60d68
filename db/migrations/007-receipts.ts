import type { Kysely } from 'kysely';

/**
 * Tax receipts (reçus fiscaux, CERFA 11580). A gift carries the donor's details the receipt needs
 * (JSON, null when the donor declined a receipt or receipts were off); a receipt snapshots
 * everything it prints (organisation, donor, amount, dates) so that its PDF is regenerated
 * byte for byte from this row alone. Numbers come from one counter row per calendar year, bumped in
 * the transaction that confirms the gift: sequential, without gaps, never reused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  /** JSON { kind, name, company, siren, address, postalCode, city, country }; null: no receipt wanted. */
  await db.schema.alterTable('donations').addColumn('tax_details', 'text').execute();
  await db.schema
    .createTable('receipt_counters')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('last', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** Prefix + year + sequence, e.g. "RF-2026-000042". */
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** 'gift' (one gift) | 'annual' (the year's monthly gifts of one donor) */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The gift, for kind 'gift'. */
    .addColumn('donation_id', 'text')
    /** JSON array of the gifts an annual receipt sums. */
    .addColumn('donation_ids', 'text', (c) => c.notNull())
    .addColumn('donor_email', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    /** JSON snapshot of the donor as printed. */
    .addColumn('donor', 'text', (c) => c.notNull())
    /** JSON snapshot of the organisation settings as printed. */
    .addColumn('organisation', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    /** Payment date (gift) or the covered year's last payment date (annual), ISO. */
    .addColumn('paid_at', 'text', (c) => c.notNull())
    /** Method of payment as printed. */
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    /** 'issued' | 'cancelled' */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancelled_at', 'text')
    .addColumn('cancel_reason', 'text')
    /** The receipt this one corrects. */
    .addColumn('replaces_id', 'text')
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('receipts_year_seq').on('receipts').columns(['year', 'seq']).unique().execute();
  await db.schema.createIndex('receipts_donation').on('receipts').column('donation_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('receipts').execute();
  await db.schema.dropTable('receipt_counters').execute();
  await db.schema.alterTable('donations').dropColumn('tax_details').execute();
}
