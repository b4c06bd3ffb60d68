import type { Kysely } from 'kysely';

/**
 * Moving in (issue 43, ADR 036): what an import created besides gifts — a campaign named by the
 * file and not found here, a member of a memberships export — with the source and reference it
 * has there. Unique per kind, source and reference: the same file twice creates nothing again
 * (gifts have theirs on `donations`). The undo reads it to take back what the import created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_records')
    .addColumn('import_id', 'text', (c) => c.notNull())
    /** 'campaign' | 'member' */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** 'helloasso' | 'givewp' | 'spreadsheet' */
    .addColumn('source', 'text', (c) => c.notNull())
    /** The reference in the source (a campaign: its name as the file writes it, folded). */
    .addColumn('source_ref', 'text', (c) => c.notNull())
    /** The campaign's or membership's id. */
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_records_ref').on('import_records').columns(['kind', 'source', 'source_ref']).unique().execute();
  await db.schema.createIndex('import_records_import').on('import_records').column('import_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_records').execute();
}
