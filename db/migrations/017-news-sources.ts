import type { Kysely } from 'kysely';

/**
 * News by email (ADR 022), its other sources: a member's consent to the foundation's news (the
 * box of the member form), dated, so that members join the letters' list like donors; and the
 * indexes that let the letters' job read only what changed since its last pass. And a letter's
 * version, so that its edits join the editorial workflow's revisions and a stale form is refused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  /** When the member said yes to the news (null: they did not). */
  await db.schema.alterTable('memberships').addColumn('news_consent_at', 'text').execute();
  await db.schema.createIndex('memberships_updated').on('memberships').column('updated_at').execute();
  await db.schema.createIndex('donor_consents_given').on('donor_consents').columns(['kind', 'given_at']).execute();
  await db.schema.createIndex('donations_updated').on('donations').column('updated_at').execute();
  /** Raised by every save of the letter's content: a form sent with an older one is refused. */
  await db.schema.alterTable('letters').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('letters').dropColumn('version').execute();
  await db.schema.dropIndex('donations_updated').execute();
  await db.schema.dropIndex('donor_consents_given').execute();
  await db.schema.dropIndex('memberships_updated').execute();
  await db.schema.alterTable('memberships').dropColumn('news_consent_at').execute();
}
