import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { settings } from '~/lib/runtime.server';
import type { Actor } from '~/domain/audit/audit.server';
import type { EntityRef, RevisionKind, RevisionSummary, Snapshot } from './editorial';

/** Revisions kept per item: REVISIONS_KEEP (default 50), as the runtime was started with. */
export function revisionsKeep(): number {
  return settings().REVISIONS_KEEP;
}

/**
 * Keeps one revision of an item (call it inside the transaction that saved it): numbered after the
 * item's last one, and only the newest `keep` of them stay.
 */
export async function recordRevision(
  trx: DB,
  ref: EntityRef,
  snapshot: Snapshot,
  actor: Actor,
  kind: RevisionKind,
  keep = revisionsKeep(),
): Promise<number> {
  const last = await trx
    .selectFrom('revisions')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('entity_type', '=', ref.type)
    .where('entity_id', '=', ref.id)
    .executeTakeFirst();
  const number = Number(last?.n ?? 0) + 1;
  await trx
    .insertInto('revisions')
    .values({
      id: randomUUID(),
      entity_type: ref.type,
      entity_id: ref.id,
      number,
      kind,
      snapshot: JSON.stringify(snapshot),
      author_id: actor.id,
      author_name: actor.name,
      created_at: new Date().toISOString(),
    })
    .execute();
  await trx.deleteFrom('revisions').where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).where('number', '<=', number - keep).execute();
  return number;
}

/** Who "wrote" the state an item had before its history began (content older than revisions). */
export const BEFORE_HISTORY: Actor = { id: null, name: 'Avant l’historique' };

/**
 * Before an item's first recorded change, keeps the state it had (content seeded or written before
 * revisions existed), so that its first change can be undone too.
 */
export async function recordBaseline(trx: DB, ref: EntityRef, snapshot: Snapshot): Promise<void> {
  const any = await trx.selectFrom('revisions').select('number').where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).limit(1).executeTakeFirst();
  if (!any) await recordRevision(trx, ref, snapshot, BEFORE_HISTORY, 'initial');
}

/** An item's revisions, newest first. */
export async function listRevisions(db: DB, ref: EntityRef): Promise<RevisionSummary[]> {
  const rows = await db
    .selectFrom('revisions')
    .select(['number', 'kind', 'author_name', 'created_at'])
    .where('entity_type', '=', ref.type)
    .where('entity_id', '=', ref.id)
    .orderBy('number', 'desc')
    .execute();
  return rows.map((r) => ({ number: Number(r.number), kind: r.kind as RevisionKind, authorName: r.author_name, createdAt: r.created_at }));
}

/** Every kept snapshot of an item, by revision number (the history screen's comparisons). */
export async function revisionSnapshots(db: DB, ref: EntityRef): Promise<Map<number, Snapshot>> {
  const rows = await db.selectFrom('revisions').select(['number', 'snapshot']).where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).execute();
  return new Map(rows.map((r) => [Number(r.number), JSON.parse(r.snapshot) as Snapshot]));
}

export async function getRevision(db: DB, ref: EntityRef, number: number): Promise<(RevisionSummary & { snapshot: Snapshot }) | undefined> {
  const r = await db
    .selectFrom('revisions')
    .selectAll()
    .where('entity_type', '=', ref.type)
    .where('entity_id', '=', ref.id)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!r) return undefined;
  return { number: Number(r.number), kind: r.kind as RevisionKind, authorName: r.author_name, createdAt: r.created_at, snapshot: JSON.parse(r.snapshot) };
}

/** An item's history goes with it. */
export async function deleteHistory(trx: DB, ref: EntityRef): Promise<void> {
  for (const table of ['revisions', 'drafts', 'autosaves'] as const) {
    await trx.deleteFrom(table).where('entity_type', '=', ref.type).where('entity_id', '=', ref.id).execute();
  }
}
