import type { Kysely } from 'kysely';

/**
 * Gifts received by post or at the bank (issue 41, ADR 028). The payment itself is the ledger's
 * `donations` row (means cheque, transfer or cash; the cheque's number in `secondary_ref`); what
 * only a gift received by hand has lives beside it, on the offline gifts' side:
 * - `gift_batches`: a deposit of cheques at the bank ("remise de chèques"), numbered 1, 2, 3…,
 *   open while cheques are typed, then deposited, then reconciled with the bank's statement;
 * - `offline_gifts`: one row per payment recorded by hand as a gift — its batch (cheques), the
 *   cheque's bank and drawer, the nature of the gift (today always 'numeraire'; gifts in kind and
 *   waived expenses would add their words), who recorded it.
 * Text columns and text ids only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gift_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('number', 'integer', (c) => c.notNull().unique())
    /** 'open' | 'deposited' | 'reconciled' (offline-gifts/totals.ts says which moves are allowed). */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The day the batch was opened (AAAA-MM-JJ, Paris). */
    .addColumn('opened_on', 'text', (c) => c.notNull())
    .addColumn('opened_by', 'text', (c) => c.notNull())
    .addColumn('deposited_on', 'text')
    .addColumn('deposited_by', 'text')
    .addColumn('reconciled_on', 'text')
    .addColumn('reconciled_by', 'text')
    /** What the bank credited, in euro cents (equal to the batch's total when reconciled). */
    .addColumn('credited_cents', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('offline_gifts')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text')
    /** 'numeraire' (money); room for 'nature' (in kind) and 'abandon_frais' (waived expenses). */
    .addColumn('nature', 'text', (c) => c.notNull().defaultTo('numeraire'))
    .addColumn('bank', 'text')
    /** Who signed the cheque, as the deposit slip prints it. */
    .addColumn('drawer', 'text')
    .addColumn('recorded_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('offline_gifts_batch').on('offline_gifts').column('batch_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('offline_gifts').execute();
  await db.schema.dropTable('gift_batches').execute();
}
