import type { Kysely } from 'kysely';

/**
 * An autosaved copy remembers the draft it was typed on (ADR 015): the draft's `saved_at`, or ''
 * when the item had none. A copy is offered back only while the item's draft is still that one.
 * Copies written before this migration count as typed on no draft.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('autosaves').addColumn('draft_saved_at', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('autosaves').dropColumn('draft_saved_at').execute();
}
