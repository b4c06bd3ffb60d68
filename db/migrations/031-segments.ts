import type { Kysely } from 'kysely';

/**
 * Segments of the donors register (issue 44, ADR 040): a saved filter is a name and its rules
 * (JSON, people/segments.ts `rulesSchema`); the ready-made segments live in the code, not here.
 * A letter's audience may be a segment (`letters.audience_segment`: a segment's id, '' for none):
 * only the segment's people whose address is a subscribed subscriber receive it.
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
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('letters').dropColumn('audience_segment').execute();
  await db.schema.dropTable('segments').execute();
}
