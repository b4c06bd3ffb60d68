import type { Kysely } from 'kysely';

/**
 * Fundraising campaigns (issue #16, ADR 014) and what a gift carries for them: the campaign it is
 * designated to, the part added to cover processing fees, and an optional dedication.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The public address: /campagnes/{slug}. */
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    /** 'draft' | 'active' | 'ended' (brouillon, active, terminée). */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Cover image: a media library path or an http(s) address; '' for none. */
    .addColumn('image', 'text', (c) => c.notNull())
    /** Goal in euro cents; null when the campaign has none. */
    .addColumn('goal_cents', 'integer')
    /** Calendar days (YYYY-MM-DD, Paris) the campaign runs; either may be null. */
    .addColumn('starts_on', 'text')
    .addColumn('ends_on', 'text')
    .addColumn('project_id', 'text')
    /** JSON: { fr: { title, summary, story }, en: …, es: … } (story is sanitized HTML). */
    .addColumn('translations', 'text', (c) => c.notNull())
    /** JSON: [{ cents, impact: { fr, en, es } }]: suggested amounts, replacing the general presets. */
    .addColumn('amounts', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('campaigns_status').on('campaigns').column('status').execute();
  await db.schema.createIndex('campaigns_project').on('campaigns').column('project_id').execute();

  await db.schema.alterTable('donations').addColumn('campaign_id', 'text').execute();
  /** Part of eur_cents the donor added to cover processing fees (0 when not chosen). */
  await db.schema.alterTable('donations').addColumn('fee_eur_cents', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  /** 'honor' | 'memory' | null */
  await db.schema.alterTable('donations').addColumn('dedication_kind', 'text').execute();
  await db.schema.alterTable('donations').addColumn('dedication_name', 'text').execute();
  await db.schema.alterTable('donations').addColumn('dedication_message', 'text').execute();
  await db.schema.alterTable('donations').addColumn('dedication_email', 'text').execute();
  await db.schema.alterTable('donations').addColumn('dedication_sent_at', 'text').execute();
  await db.schema.createIndex('donations_campaign_status').on('donations').columns(['campaign_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('donations_campaign_status').execute();
  for (const c of ['dedication_sent_at', 'dedication_email', 'dedication_message', 'dedication_name', 'dedication_kind', 'fee_eur_cents', 'campaign_id']) {
    await db.schema.alterTable('donations').dropColumn(c).execute();
  }
  await db.schema.dropTable('campaigns').execute();
}
