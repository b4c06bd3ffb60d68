import type { Kysely } from 'kysely';

/**
 * Receipts by regime (issue 42, ADR 035): `receipts.regime` says which CGI article the receipt
 * opens a reduction under — '200' (an individual, income tax), '238bis' (a company), '978' (IFI).
 * Back-filled from the donor snapshot every receipt keeps: a company's is 238 bis, every other one
 * 200 (no IFI receipt was issued before this migration). `receipt_declarations` records, per
 * fiscal year, that an Admin marked the 222 bis declaration as made (who, when), which ends the
 * dashboard's reminder. Text and integer columns only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').addColumn('regime', 'text', (c) => c.notNull().defaultTo('200')).execute();
  // The snapshot is JSON.stringify's output: no space after the colon.
  await db.updateTable('receipts').set({ regime: '238bis' }).where('donor', 'like', '%"kind":"company"%').execute();
  await db.schema
    .createTable('receipt_declarations')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('done_at', 'text', (c) => c.notNull())
    .addColumn('done_by', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('receipt_declarations').execute();
  await db.schema.alterTable('receipts').dropColumn('regime').execute();
}
