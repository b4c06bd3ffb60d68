import type { Kysely } from 'kysely';

/**
 * What a payment was made with, as its provider reports it (issue 41, ADR 029): Stripe takes cards
 * and SEPA direct debits alike, so `provider` alone no longer names the means. `method` is the
 * provider's payment method type ('card', 'sepa_debit'), read from the verified payment; null for
 * providers with one means, and for payments recorded before. A debit's account and mandate are
 * kept for the donor: the account's last four digits (IBAN), the mandate's reference and the
 * instant the donor signed it (ISO 8601).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('donations').addColumn('method', 'text').execute();
  await db.schema.alterTable('donations').addColumn('account_last4', 'text').execute();
  await db.schema.alterTable('donations').addColumn('mandate_ref', 'text').execute();
  await db.schema.alterTable('donations').addColumn('mandate_signed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['mandate_signed_at', 'mandate_ref', 'account_last4', 'method']) await db.schema.alterTable('donations').dropColumn(c).execute();
}
