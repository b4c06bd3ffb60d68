import type { Kysely } from 'kysely';

/**
 * Dues an Admin records by hand (cash, cheque, transfer; issue 32 item 5, ADR 021): the link of a
 * payment to its membership names who recorded it, for the dues history. Null for payments made
 * online (the payer's own act).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('membership_payments').addColumn('recorded_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('membership_payments').dropColumn('recorded_by').execute();
}
