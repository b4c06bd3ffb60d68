import type { Kysely } from 'kysely';

/**
 * Where the money goes (issue 42, ADR 032): one row per year of the figures an Admin types from the
 * approved accounts — resources (gifts from the public, dues, other lines) and uses (social
 * missions by project, fundraising costs, running costs) — as one JSON document
 * (app/domain/transparency/figures.ts says its shape), with a comment per language, whether the
 * year is published, and a version that refuses a save made from an older read.
 * Text and integers only: the same schema on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transparency_years')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    /** JSON: { giftsCents, duesCents, otherResources: [{ label, cents }], missions: [{ projectId, label, cents }], fundraisingCents, runningCents, comment: { fr, en, es } } */
    .addColumn('figures', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transparency_years').execute();
}
