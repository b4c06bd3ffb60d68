import { sql } from 'kysely';
import type { DB } from '~db/index';
import { segmentEmails } from '~/domain/people/segments.server';
import type { Audience } from './letter';

/**
 * The sending queue (ADR 022): one row per recipient of a letter, in the database, shared by every
 * instance. A row goes `queued` → `claimed` (by one worker, by one conditional UPDATE) → `sent`,
 * `failed` or `skipped`; a claim a worker never settled (it died) becomes `unknown` after the
 * lease, and is never sent again. Nothing ever puts a claimed row back in the queue but its own
 * worker, and only when the SMTP server was not reached (nothing was delivered).
 */
export const QUEUE_STATES = ['queued', 'claimed', 'sent', 'failed', 'unknown', 'skipped'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/**
 * Puts the letter's audience in its queue: the subscribed addresses of the chosen language and
 * source, at this moment; with a segment (ADR 040), only those that are an address of one of the
 * segment's people at `now` (a segment deleted since: nobody). Idempotent (a row per letter and
 * subscriber). Returns rows added.
 */
export async function enqueue(db: DB, letterId: string, audience: Audience, now = new Date()): Promise<number> {
  const segment = audience.segment ? await segmentEmails(db, audience.segment, now) : null;
  if (segment === undefined) return 0;
  let recipients = db
    .selectFrom('subscribers')
    .select([
      sql<string>`${letterId} || ':' || subscribers.id`.as('id'),
      sql<string>`${letterId}`.as('letter_id'),
      'subscribers.id as subscriber_id',
      sql<string>`'queued'`.as('status'),
    ])
    .where('subscribers.status', '=', 'subscribed');
  if (audience.language) recipients = recipients.where('subscribers.language', '=', audience.language);
  if (audience.source) recipients = recipients.where('subscribers.source', '=', audience.source);
  if (segment) recipients = recipients.where((eb) => eb(eb.fn('lower', ['subscribers.email']), 'in', segment));
  const r = await db
    .insertInto('letter_queue')
    .columns(['id', 'letter_id', 'subscriber_id', 'status'])
    .expression(recipients)
    .onConflict((oc) => oc.columns(['letter_id', 'subscriber_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

export interface Claimed {
  id: string;
  letterId: string;
  subscriberId: string;
}

/**
 * Claims up to `n` queued rows of a letter for `workerId`: one UPDATE whose WHERE re-checks
 * `status = 'queued'`, so that of two workers reaching for a row only one gets it (SQLite writes
 * one at a time; PostgreSQL re-reads a row a concurrent UPDATE changed). Returns the rows this
 * worker holds now.
 */
export async function claim(db: DB, letterId: string, workerId: string, n: number, now: Date): Promise<Claimed[]> {
  await db
    .updateTable('letter_queue')
    .set({ status: 'claimed', claimed_by: workerId, claimed_at: now.toISOString() })
    .where('status', '=', 'queued')
    .where('id', 'in', (eb) => eb.selectFrom('letter_queue as q').select('q.id').where('q.letter_id', '=', letterId).where('q.status', '=', 'queued').orderBy('q.id').limit(n))
    .execute();
  const rows = await db
    .selectFrom('letter_queue')
    .select(['id', 'letter_id', 'subscriber_id'])
    .where('letter_id', '=', letterId)
    .where('claimed_by', '=', workerId)
    .where('status', '=', 'claimed')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, letterId: r.letter_id, subscriberId: r.subscriber_id }));
}

export type Settlement = 'sent' | 'failed' | 'skipped';

/**
 * What became of a claimed row, said by the worker that holds it. Returns false when the row is
 * no longer this worker's claim (the lease ran out and it was marked unknown): it stays as it is.
 */
export async function settle(db: DB, rowId: string, workerId: string, outcome: Settlement, error: string | null, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('letter_queue')
    .set({ status: outcome, done_at: now.toISOString(), error })
    .where('id', '=', rowId)
    .where('claimed_by', '=', workerId)
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a claim back to the queue: only its own worker, only when the mail surely did not leave. */
export async function release(db: DB, rowId: string, workerId: string): Promise<boolean> {
  const r = await db
    .updateTable('letter_queue')
    .set({ status: 'queued', claimed_by: null, claimed_at: null })
    .where('id', '=', rowId)
    .where('claimed_by', '=', workerId)
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Claims older than the lease whose worker never settled them (it was killed, or its machine
 * stopped): the mail may or may not have left, so the row becomes `unknown` and is never sent
 * again. Returns how many.
 */
export async function markAbandoned(db: DB, leaseMs: number, now: Date): Promise<number> {
  const r = await db
    .updateTable('letter_queue')
    .set({ status: 'unknown', done_at: now.toISOString(), error: 'Envoi interrompu (processus arrêté) : remis ou non, on ne sait pas ; jamais renvoyé.' })
    .where('status', '=', 'claimed')
    .where('claimed_at', '<', new Date(now.getTime() - leaseMs).toISOString())
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export type QueueCounts = Record<QueueState, number>;

export async function queueCounts(db: DB, letterId: string): Promise<QueueCounts> {
  const rows = await db.selectFrom('letter_queue').select(['status', (eb) => eb.fn.countAll<string | number>().as('n')]).where('letter_id', '=', letterId).groupBy('status').execute();
  const out: QueueCounts = { queued: 0, claimed: 0, sent: 0, failed: 0, unknown: 0, skipped: 0 };
  for (const r of rows) out[r.status as QueueState] = Number(r.n);
  return out;
}

/** Whether every row of the letter is settled (none queued, none claimed). */
export async function drained(db: DB, letterId: string): Promise<boolean> {
  const open = await db.selectFrom('letter_queue').select('id').where('letter_id', '=', letterId).where('status', 'in', ['queued', 'claimed']).limit(1).executeTakeFirst();
  return open === undefined;
}
