import type { Kysely } from 'kysely';

/**
 * The donor space (ADR 013): one-time sign-in links and sessions of donors (separate from admin
 * accounts: a donor is only an email that has given), the state and history of monthly gifts, and
 * consent records. Tokens are kept as their sha256 only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('donor_links')
    /** sha256 (hex) of the mailed token. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** Lowercased and trimmed. */
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('donor_links_email').on('donor_links').column('email').execute();

  await db.schema
    .createTable('donor_sessions')
    /** sha256 (hex) of the cookie's token. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('donor_sessions_email').on('donor_sessions').column('email').execute();

  await db.schema
    .createTable('monthly_gifts')
    /** The provider's subscription id (Stripe `sub_…`). */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The donation whose checkout created it: the donor's email is read from there, never copied. */
    .addColumn('first_donation_id', 'text', (c) => c.notNull())
    /** The amount of the next instalment, in minor units of `currency`. */
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** 'active' | 'paused' | 'past_due' | 'ended' */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monthly_gifts_first_donation').on('monthly_gifts').column('first_donation_id').execute();

  await db.schema
    .createTable('monthly_gift_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('gift_id', 'text', (c) => c.notNull())
    /** 'amount' | 'paused' | 'resumed' | 'stopped' | 'card' | 'payment_failed' | 'ended' */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'integer')
    .addColumn('previous_amount_minor', 'integer')
    /** 'donor' | 'admin' | 'provider' */
    .addColumn('source', 'text', (c) => c.notNull())
    /** The provider's reference when it told us (invoice, event): an event is recorded once. */
    .addColumn('provider_ref', 'text', (c) => c.unique())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monthly_gift_events_gift').on('monthly_gift_events').columns(['gift_id', 'at']).execute();

  await db.schema
    .createTable('donor_consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The donation the consent was given with; its donor_email says whose it is. */
    .addColumn('donation_id', 'text', (c) => c.notNull())
    /** 'newsletter' */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('given_at', 'text', (c) => c.notNull())
    .addColumn('withdrawn_at', 'text')
    .execute();
  await db.schema.createIndex('donor_consents_donation').on('donor_consents').column('donation_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['donor_consents', 'monthly_gift_events', 'monthly_gifts', 'donor_sessions', 'donor_links']) {
    await db.schema.dropTable(table).execute();
  }
}
