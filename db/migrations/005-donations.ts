import type { Kysely } from 'kysely';

/**
 * The donations ledger: one row per payment attempt. A provider's reference is unique per
 * provider, so a replayed webhook or a second callback can never create a second donation.
 * Payment settings live in `settings` (key 'payments') with their secrets encrypted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('donations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** 'stripe' | 'paypal' | 'coingate' | 'flutterwave' | 'mobile_link' */
    .addColumn('provider', 'text', (c) => c.notNull())
    /** Checkout session, order, transaction or invoice id; `attempt:{id}` until the provider gave one. */
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    /** Amount charged, in the minor unit of `currency` (cents; whole francs for XOF/XAF). */
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** The value in euro cents (converted at the fixed parity for XOF/XAF); null when unknown. */
    .addColumn('eur_cents', 'integer')
    /** Stripe: the payment intent (one-off) or subscription (monthly) the session created. */
    .addColumn('secondary_ref', 'text')
    /** 'once' | 'monthly' */
    .addColumn('frequency', 'text', (c) => c.notNull())
    /** 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'refunded' */
    .addColumn('status', 'text', (c) => c.notNull())
    /** 0 for attempts nobody can verify (mobile money payment link). */
    .addColumn('verifiable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('donor_name', 'text')
    .addColumn('donor_email', 'text')
    /** The donor's language (fr, en, es): the receipt is written in it. */
    .addColumn('language', 'text', (c) => c.notNull())
    /** sha256 of a per-order secret the provider echoes back (CoinGate callback token). */
    .addColumn('callback_token_hash', 'text')
    .addColumn('error', 'text')
    .addColumn('receipt_sent_at', 'text')
    .addColumn('succeeded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('donations_provider_ref').on('donations').columns(['provider', 'provider_ref']).unique().execute();
  await db.schema.createIndex('donations_secondary_ref').on('donations').columns(['provider', 'secondary_ref']).execute();
  await db.schema.createIndex('donations_status_created').on('donations').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('donations_succeeded_at').on('donations').column('succeeded_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('donations').execute();
}
