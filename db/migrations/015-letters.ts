import type { Kysely } from 'kysely';

/**
 * News by email (ADR 022): the subscribers' list with its proof of consent, the double opt-in
 * tokens, the letters and their sending queue. Tokens are kept as their sha256 only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** Lowercased and trimmed: one row per address. */
    .addColumn('email', 'text', (c) => c.notNull().unique())
    /** 'fr' | 'en' | 'es': the language letters are sent in. */
    .addColumn('language', 'text', (c) => c.notNull())
    /** 'signup' | 'donor' | 'member': how the address joined (the latest consent's source). */
    .addColumn('source', 'text', (c) => c.notNull())
    /** 'pending' | 'subscribed' | 'unsubscribed' | 'suppressed' (subscribers/states.ts). */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Why the address is suppressed (a permanent SMTP refusal, a complaint). */
    .addColumn('suppressed_reason', 'text')
    /** Temporary bounces reported in a row by the mail provider (reset by a delivery). */
    .addColumn('soft_bounces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscribers_status').on('subscribers').columns(['status', 'language']).execute();

  await db.schema
    .createTable('subscriber_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'text', (c) => c.notNull())
    /** 'requested' | 'confirmed' | 'joined' | 'unsubscribed' | 'suppressed' | 'lifted' */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    /** 'signup' | 'donor' | 'member' | 'one-click' | 'page' | 'admin' | 'smtp' */
    .addColumn('source', 'text', (c) => c.notNull())
    /** The consent wording the person saw (subscribers/wording.ts), for 'requested' and 'confirmed'. */
    .addColumn('wording_version', 'text')
    /** The page the form was on, a donation's id, an SMTP answer… */
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('subscriber_events_subscriber').on('subscriber_events').column('subscriber_id').execute();

  await db.schema
    .createTable('subscriber_tokens')
    /** sha256 (hex) of the mailed token. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('subscriber_tokens_subscriber').on('subscriber_tokens').column('subscriber_id').execute();

  await db.schema
    .createTable('letters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** JSON: { fr: { subject, body, link, image }, en?: …, es?: … }; French is required. */
    .addColumn('versions', 'text', (c) => c.notNull())
    /** The blog post the letter was made from, if any. */
    .addColumn('post_id', 'text')
    /** '' (every language) or one language. */
    .addColumn('audience_language', 'text', (c) => c.notNull().defaultTo(''))
    /** '' (every source) or 'signup' | 'donor' | 'member'. */
    .addColumn('audience_source', 'text', (c) => c.notNull().defaultTo(''))
    /** 'draft' | 'scheduled' | 'sending' | 'paused' | 'sent' (letters/states.ts). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'text')
    /** Why the sending paused itself (in French, for the back office). */
    .addColumn('pause_reason', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();

  await db.schema
    .createTable('letter_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('letter_id', 'text', (c) => c.notNull())
    .addColumn('subscriber_id', 'text', (c) => c.notNull())
    /** 'queued' | 'claimed' | 'sent' | 'failed' | 'unknown' | 'skipped' (letters/queue.server.ts). */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The worker that claimed the row (its run id), and when. */
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('done_at', 'text')
    .addColumn('error', 'text')
    .addUniqueConstraint('letter_queue_once', ['letter_id', 'subscriber_id'])
    .execute();
  await db.schema
    .createTable('mail_events')
    /** The provider and its event id: an event is applied once, a replay finds it here. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('letter_queue_status').on('letter_queue').columns(['status', 'letter_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['mail_events', 'letter_queue', 'letters', 'subscriber_tokens', 'subscriber_events', 'subscribers']) await db.schema.dropTable(t).execute();
}
