import type { Kysely } from 'kysely';

/**
 * Membership (issue 32, ADR 021): the types of membership, the register of members, the history
 * of their dues and the reminders sent. The general settings (grace days, reminder schedule,
 * statutes' address, retention) are a document in `settings` (key 'membership'), as the receipts'.
 * Dues are paid through the payment pipeline: a dues row names the pipeline's payment, it is not
 * one (the `donations` table stays the ledger's alone).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('membership_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** JSON: { fr: { name, description }, en: …, es: … } */
    .addColumn('translations', 'text', (c) => c.notNull())
    /** Yearly dues in euro cents; 0 for a free type (membre d'honneur). */
    .addColumn('dues_cents', 'integer', (c) => c.notNull())
    /** 'anniversary' | 'calendar' */
    .addColumn('period_model', 'text', (c) => c.notNull())
    /** Calendar model: 'MM-DD' from which a new member is counted through the end of next year; '' for none. */
    .addColumn('rollover', 'text', (c) => c.notNull().defaultTo(''))
    /** 1 when the dues open a reçu fiscal (art. 200 CGI); off by default. */
    .addColumn('tax_deductible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The member number, given in order (1, 2, …). */
    .addColumn('number', 'integer', (c) => c.notNull().unique())
    .addColumn('type_id', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    /** '' when the member has none (reminders then go by post). */
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    /** 'fr' | 'en' | 'es': the language of the member's mails. */
    .addColumn('language', 'text', (c) => c.notNull())
    /** 1: honorary or exempt, no dues, no expiry. */
    .addColumn('exempt', 'integer', (c) => c.notNull().defaultTo(0))
    /** The last day (Paris, YYYY-MM-DD) the dues pay for, recomputed from membership_dues at each change; null: none. */
    .addColumn('ends_on', 'text')
    /** An Admin's override of the computed state, with its reason, author and time; null: none. */
    .addColumn('state_override', 'text')
    .addColumn('override_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('override_by', 'text')
    .addColumn('override_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memberships_ends_on').on('memberships').column('ends_on').execute();
  await db.schema.createIndex('memberships_type').on('memberships').column('type_id').execute();
  await db.schema.createIndex('memberships_email').on('memberships').column('email').execute();

  await db.schema
    .createTable('membership_dues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('membership_id', 'text', (c) => c.notNull())
    /** The payment pipeline's payment id; null for an entry typed by staff. Unique: a replayed payment event finds it. */
    .addColumn('payment_id', 'text', (c) => c.unique())
    /** How it was paid: 'card', 'paypal', 'mobile_money', 'crypto', 'cheque', 'transfer', 'cash'… */
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('paid_at', 'text', (c) => c.notNull())
    /** The Paris days this payment pays for, recomputed with the rest of the history; null once it no longer counts. */
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    /** 'paid' | 'refunded' | 'cancelled' */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    /** Who typed a manual entry (a user's name); null for the pipeline. */
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('membership_dues_member').on('membership_dues').columns(['membership_id', 'paid_at']).execute();
  await db.schema.createIndex('membership_dues_period').on('membership_dues').columns(['period_start', 'period_end']).execute();

  await db.schema
    .createTable('membership_reminders')
    .addColumn('membership_id', 'text', (c) => c.notNull())
    /** The period end the reminder was about: next year's reminders are new rows. */
    .addColumn('period_end', 'text', (c) => c.notNull())
    /** Days relative to the end (-30, -7, 0, 15…). */
    .addColumn('step', 'integer', (c) => c.notNull())
    /** 'email' | 'paper' (no address: listed for a paper mailing). */
    .addColumn('channel', 'text', (c) => c.notNull())
    /** When an instance claimed it (the row's insert); a step is claimed once, whatever the instances. */
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addPrimaryKeyConstraint('membership_reminders_pk', ['membership_id', 'period_end', 'step'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('membership_reminders').execute();
  await db.schema.dropTable('membership_dues').execute();
  await db.schema.dropTable('memberships').execute();
  await db.schema.dropTable('membership_types').execute();
}
