import type { Kysely } from 'kysely';

/**
 * Moving in (issue 43, ADR 036): files of gifts imported from HelloAsso, GiveWP or a spreadsheet.
 *
 * `imports`: one row per file uploaded, with the stored file's key, the source and column mapping
 * chosen, its dry run's report, and — once started — how far the import went (`cursor`: the data
 * lines done, committed with each batch, so a restart resumes where it stopped) and who holds it
 * (`lease_until`: the instance running it; another takes over once the lease is past).
 *
 * `import_presets`: a column mapping an Admin saved for the next file of the same spreadsheet.
 *
 * On `donations`: the import that wrote a gift, its source ('helloasso', 'givewp', 'spreadsheet'),
 * its reference there (unique per source: the same file twice adds nothing) and the receipt number
 * it had there (text, never ours).
 *
 * Text and integers only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_name', 'text', (c) => c.notNull())
    /** The stored file (storage key). */
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    /** 'helloasso' | 'givewp' | 'spreadsheet' */
    .addColumn('source', 'text', (c) => c.notNull())
    /** JSON: the file's reading (encoding, separator) and the mapping field → column. */
    .addColumn('mapping', 'text', (c) => c.notNull())
    /** 'uploaded' | 'checked' | 'running' | 'done' | 'failed' | 'undone' */
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON: the dry run's report (counts, donors to review, rejected lines). */
    .addColumn('report', 'text')
    /** Data lines the file holds (known after the dry run). */
    .addColumn('total_lines', 'integer', (c) => c.notNull().defaultTo(0))
    /** Data lines done by the import (committed with each batch). */
    .addColumn('cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema.createIndex('imports_status').on('imports').column('status').execute();

  await db.schema
    .createTable('import_presets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    /** JSON: field → column header. */
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('donations').addColumn('import_id', 'text').execute();
  await db.schema.alterTable('donations').addColumn('source', 'text').execute();
  await db.schema.alterTable('donations').addColumn('source_ref', 'text').execute();
  await db.schema.alterTable('donations').addColumn('external_receipt_number', 'text').execute();
  await db.schema.createIndex('donations_source_ref').on('donations').columns(['source', 'source_ref']).unique().execute();
  await db.schema.createIndex('donations_import').on('donations').column('import_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('donations_import').execute();
  await db.schema.dropIndex('donations_source_ref').execute();
  for (const c of ['external_receipt_number', 'source_ref', 'source', 'import_id']) await db.schema.alterTable('donations').dropColumn(c).execute();
  await db.schema.dropTable('import_presets').execute();
  await db.schema.dropTable('imports').execute();
}
