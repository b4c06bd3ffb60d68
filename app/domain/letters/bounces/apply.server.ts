import type { DB } from '~db/index';
import { delivered, softBounce, suppress } from '~/domain/subscribers/subscribers.server';
import type { BounceEvent } from './types';

/** Temporary bounces in a row after which an address is suppressed. */
export const SOFT_BOUNCE_LIMIT = 3;

/**
 * Applies a verified event once (its id is recorded; a replay changes nothing): a hard bounce or
 * a complaint suppresses the address at once, a soft bounce counts towards SOFT_BOUNCE_LIMIT, a
 * delivery resets that count. Returns false for a replay.
 */
export async function applyBounceEvent(db: DB, event: BounceEvent, now = new Date()): Promise<boolean> {
  const r = await db.insertInto('mail_events').values({ id: event.id, received_at: now.toISOString() }).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  if (event.kind === 'hard') await suppress(db, event.recipient, event.detail, 'provider', now);
  else if (event.kind === 'complaint') await suppress(db, event.recipient, `Plainte pour spam : ${event.detail}`, 'provider', now);
  else if (event.kind === 'soft') await softBounce(db, event.recipient, SOFT_BOUNCE_LIMIT, event.detail, now);
  else await delivered(db, event.recipient);
  return true;
}
