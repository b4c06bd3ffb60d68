import type { Kysely } from 'kysely';

/**
 * Gifts in kind and waived expenses (issue 41, ADR 030). The gift itself is the ledger's
 * `donations` row (means `in_kind` or `waived_expenses`, its valuation in `eur_cents`); beside it:
 * - `receipts.nature` ('numeraire' | 'nature' | 'abandon_frais') and `receipts.nature_description`:
 *   what the receipt prints under "Nature du don", snapshotted like everything else it prints;
 * - on `offline_gifts`, the valuation: its description, its basis ('invoice', 'market', 'other',
 *   'mileage') and the basis's detail, the mileage scale's distance, fiscal horsepower and whether
 *   the car is electric, and whether the volunteer waived reimbursement in writing;
 * - `gift_evidence`: the evidence attached (an invoice, an expense note), kept in the database —
 *   never in the public media storage —, base64 text so that backups carry it on both databases.
 * Text and integer columns only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').addColumn('nature', 'text', (c) => c.notNull().defaultTo('numeraire')).execute();
  await db.schema.alterTable('receipts').addColumn('nature_description', 'text').execute();
  for (const [name, type] of [
    ['description', 'text'],
    ['valuation_basis', 'text'],
    ['basis_detail', 'text'],
    ['km', 'integer'],
    ['horsepower', 'integer'],
    ['electric', 'integer'],
    ['waiver_signed', 'integer'],
  ] as const) {
    await db.schema.alterTable('offline_gifts').addColumn(name, type).execute();
  }
  await db.schema
    .createTable('gift_evidence')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    /** The name the file was sent with (shown and offered on download, never used as a path). */
    .addColumn('file_name', 'text', (c) => c.notNull())
    /** What its content is (application/pdf, image/jpeg, image/png), from its first bytes. */
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('data_base64', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gift_evidence').execute();
  for (const name of ['description', 'valuation_basis', 'basis_detail', 'km', 'horsepower', 'electric', 'waiver_signed']) {
    await db.schema.alterTable('offline_gifts').dropColumn(name).execute();
  }
  await db.schema.alterTable('receipts').dropColumn('nature_description').execute();
  await db.schema.alterTable('receipts').dropColumn('nature').execute();
}
