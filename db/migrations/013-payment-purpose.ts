import type { Kysely } from 'kysely';

/**
 * What a payment is for (ADR 019): 'gift' for every payment so far; membership dues will add their
 * own purpose. The ledger records it with the attempt and every payment event carries it, so a
 * purpose's subscribers act on their own payments only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('donations').addColumn('purpose', 'text', (c) => c.notNull().defaultTo('gift')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('donations').dropColumn('purpose').execute();
}
