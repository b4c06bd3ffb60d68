import type { Kysely } from 'kysely';

/**
 * Editorial workflow (issue #17, ADR 015), generic over content types: an item is named by
 * `entity_type` (post, project, …) and `entity_id`; its editable fields travel as one JSON snapshot.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Every save of an item: numbered per item, bounded in count (oldest pruned).
  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('revisions_entity_number', ['entity_type', 'entity_id', 'number'])
    .execute();

  // The pending draft of an item (at most one), optionally scheduled for publication at publish_at (UTC).
  await db.schema
    .createTable('drafts')
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('base_version', 'integer', (c) => c.notNull())
    .addColumn('publish_at', 'text')
    .addColumn('saved_by_id', 'text')
    .addColumn('saved_by_name', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('drafts_pk', ['entity_type', 'entity_id'])
    .execute();
  await db.schema.createIndex('drafts_publish_at').on('drafts').column('publish_at').execute();

  // The autosaved copy of what one editor is typing, and when each editor last had the item open.
  await db.schema
    .createTable('autosaves')
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text')
    .addColumn('base_version', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'text')
    .addPrimaryKeyConstraint('autosaves_pk', ['entity_type', 'entity_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['autosaves', 'drafts', 'revisions']) await db.schema.dropTable(t).ifExists().execute();
}
