import { sql, type Kysely } from 'kysely';

/**
 * Segments of the donors register (issue 44, ADR 040): a saved filter is a name and its rules
 * (JSON, people/segments.ts `rulesSchema`); the ready-made segments live in the code, not here.
 * A letter's audience may be a segment (`letters.audience_segment`: a segment's id, '' for none):
 * only the segment's people whose address is a subscribed subscriber receive it.
 * `people_last_sort`: the register's list sorted by last gift (and the lapsed segments, sorted so)
 * orders by `coalesce(last_gift_at, '')`, which the index on `last_gift_at` alone cannot serve: an
 * index on that very expression lets a page of 50 stop after 50 rows instead of sorting them all.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('letters').addColumn('audience_segment', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`create index people_last_sort on people (merged_into, coalesce(last_gift_at, ''), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('people_last_sort').execute();
  await db.schema.alterTable('letters').dropColumn('audience_segment').execute();
  await db.schema.dropTable('segments').execute();
}
