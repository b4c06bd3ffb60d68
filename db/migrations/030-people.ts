import type { Kysely } from 'kysely';

/**
 * The donors register (issue 44, ADR 038): one record per person over the emails the gifts,
 * memberships and subscriptions already carry. Nothing of the ledger, the receipts or the
 * memberships changes: a person owns email addresses (`person_emails`), and a merge only moves
 * addresses, notes and tags from one person to another (`person_merges` keeps what it moved, to
 * take it back).
 *
 * `people`: the record, with the fundraisers' figures kept in step with the ledger (the same rule
 * of what counts as the reports, ADR 016) so the list sorts 100 000 donors by any of them; a merged
 * person stays, pointing at the survivor (`merged_into`), until the merge is taken back.
 * `person_years`: euros given per calendar year (UTC, as the reports), for "this year" and "last year".
 * `person_emails`: one lowercased address → its person, with what was last seen with it (name,
 * postal code, phone) for the duplicate rules (`name_key`, `postal_code`, `phone` normalized).
 * `person_notes`, `tags`, `person_tags`: staff's notes and tags on a record.
 * `person_pair_dismissals`: two records staff said are not one person (not suggested again).
 * `people_sync`: how far each source (donations, memberships, subscribers) was folded in, by `updated_at`.
 *
 * Text and integers only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('people')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    /** Lowercased name without accents, for sorting. */
    .addColumn('sort_name', 'text', (c) => c.notNull())
    /** Lowercased name and addresses, for the search. */
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('merged_into', 'text')
    .addColumn('gifts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('largest_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_gift_at', 'text')
    .addColumn('last_gift_at', 'text')
    .addColumn('last_monthly_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('people_sort_name').on('people').columns(['merged_into', 'sort_name', 'id']).execute();
  await db.schema.createIndex('people_last_gift').on('people').columns(['merged_into', 'last_gift_at']).execute();
  await db.schema.createIndex('people_total').on('people').columns(['merged_into', 'total_cents']).execute();

  await db.schema
    .createTable('person_years')
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('gifts', 'integer', (c) => c.notNull())
    .addColumn('cents', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('person_years_pk', ['person_id', 'year'])
    .execute();
  await db.schema.createIndex('person_years_year').on('person_years').columns(['year', 'cents']).execute();

  await db.schema
    .createTable('person_emails')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_emails_person').on('person_emails').column('person_id').execute();
  await db.schema.createIndex('person_emails_name_postal').on('person_emails').columns(['name_key', 'postal_code']).execute();
  await db.schema.createIndex('person_emails_phone').on('person_emails').column('phone').execute();

  await db.schema
    .createTable('person_merges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survivor_id', 'text', (c) => c.notNull())
    .addColumn('merged_id', 'text', (c) => c.notNull())
    /** JSON: { emails: string[], notes: string[], tags: string[], addedTags: string[] } */
    .addColumn('moved', 'text', (c) => c.notNull())
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('undone_at', 'text')
    .addColumn('undone_by', 'text')
    .execute();
  await db.schema.createIndex('person_merges_survivor').on('person_merges').column('survivor_id').execute();
  await db.schema.createIndex('person_merges_merged').on('person_merges').column('merged_id').execute();

  await db.schema
    .createTable('person_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_notes_person').on('person_notes').columns(['person_id', 'created_at']).execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('person_tags')
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('person_tags_pk', ['person_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('person_tags_tag').on('person_tags').column('tag_id').execute();

  await db.schema
    .createTable('person_pair_dismissals')
    .addColumn('a_id', 'text', (c) => c.notNull())
    .addColumn('b_id', 'text', (c) => c.notNull())
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('person_pair_dismissals_pk', ['a_id', 'b_id'])
    .execute();

  await db.schema
    .createTable('people_sync')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('mark', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscribers_updated').on('subscribers').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscribers_updated').execute();
  for (const t of ['people_sync', 'person_pair_dismissals', 'person_tags', 'tags', 'person_notes', 'person_merges', 'person_emails', 'person_years', 'people']) {
    await db.schema.dropTable(t).execute();
  }
}
