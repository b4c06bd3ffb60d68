import type { Kysely } from 'kysely';

/**
 * Disputes of payments (issue 41, ADR 027): a card chargeback, a SEPA return. One row per dispute
 * and outcome the provider told us of ('open', 'won', 'lost'), written once: a replayed event finds
 * its row and changes nothing, nor is an Admin told twice. The gift's own status (a lost dispute
 * counts it refunded) is the ledger's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_disputes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('donation_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The provider's id of the dispute. */
    .addColumn('dispute_ref', 'text', (c) => c.notNull())
    /** 'open' | 'won' | 'lost' */
    .addColumn('outcome', 'text', (c) => c.notNull())
    /** The reason the provider gives (its own code), if any. */
    .addColumn('reason', 'text')
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addUniqueConstraint('payment_disputes_once', ['provider', 'dispute_ref', 'outcome'])
    .execute();
  await db.schema.createIndex('payment_disputes_donation').on('payment_disputes').column('donation_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_disputes').execute();
}
