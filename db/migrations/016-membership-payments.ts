import type { Kysely } from 'kysely';

/**
 * Which membership a payment of purpose 'dues' pays for (issue 32, ADR 021). Written by the
 * membership area when it starts the payment through the pipeline, read by its subscriber when the
 * payment's verified event comes: the link lives on the membership's side, the `donations` row
 * stays the ledger's alone. One row per payment (the payment id is the key).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('membership_payments')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('membership_id', 'text', (c) => c.notNull())
    /** 'join' (the first dues, on the joining form) | 'renewal' (the renewal link's page). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('membership_payments_member').on('membership_payments').column('membership_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('membership_payments').execute();
}
