import type { Kysely } from 'kysely';

/**
 * Fees and payouts from the providers' own ledgers (issue 42, ADR 033). Stored beside the gift,
 * never changing its amount or receipt.
 *
 * `provider_balance_moves`: one row per movement the provider's balance saw for one of our
 * payments: the payment itself ('payment'), a refund ('refund'), a dispute's withdrawal or
 * reinstatement ('dispute'). Its gross, the fee the provider kept and the net it credited, the date
 * the money became available, and the payout that carried it to the bank once known. Keyed on the
 * provider's own id of the movement (a Stripe balance transaction `txn_…`, a PayPal capture or
 * refund id): a replayed fetch finds its row.
 *
 * `provider_payouts`: one row per transfer from a provider's balance to the foundation's bank
 * account (a Stripe payout `po_…`), with the amount the bank statement shows and its arrival date.
 *
 * Text and integers only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('provider_balance_moves')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The provider's id of the movement (Stripe `txn_…`, PayPal capture/refund id…). */
    .addColumn('move_ref', 'text', (c) => c.notNull())
    /** Our gift (donations.id); null for a movement of no gift of ours (a payout's own fee…). */
    .addColumn('donation_id', 'text')
    /** 'payment' | 'refund' | 'dispute' | 'other' */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Signed minor units in `currency`: a refund's gross and net are negative. */
    .addColumn('gross_minor', 'integer', (c) => c.notNull())
    /** What the provider kept (positive), or gave back (negative). */
    .addColumn('fee_minor', 'integer', (c) => c.notNull())
    .addColumn('net_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** ISO date-time the movement happened, per the provider. */
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    /** ISO date-time the net became available for a payout, when the provider says. */
    .addColumn('available_at', 'text')
    /** The provider's id of the payout that carried this movement to the bank (Stripe `po_…`). */
    .addColumn('payout_ref', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('provider_balance_moves_once', ['provider', 'move_ref'])
    .execute();
  await db.schema.createIndex('provider_balance_moves_donation').on('provider_balance_moves').column('donation_id').execute();
  await db.schema.createIndex('provider_balance_moves_payout').on('provider_balance_moves').columns(['provider', 'payout_ref']).execute();
  await db.schema.createIndex('provider_balance_moves_occurred').on('provider_balance_moves').column('occurred_at').execute();

  await db.schema
    .createTable('provider_payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('payout_ref', 'text', (c) => c.notNull())
    /** What reaches the bank account, minor units in `currency`. */
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled' (Stripe's words). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    /** The date the bank is expected to (or did) receive it. */
    .addColumn('arrival_at', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('provider_payouts_once', ['provider', 'payout_ref'])
    .execute();
  await db.schema.createIndex('provider_payouts_arrival').on('provider_payouts').column('arrival_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('provider_payouts').execute();
  await db.schema.dropTable('provider_balance_moves').execute();
}
