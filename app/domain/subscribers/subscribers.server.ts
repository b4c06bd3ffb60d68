import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import type { Lang } from '~/lib/i18n';
import { hashToken, newToken } from '~/lib/tokens.server';
import {
  afterDonorConsent,
  afterSignup,
  confirms,
  LIFT_REASON_MAX,
  normalEmail,
  OPT_IN_TTL_MS,
  type SubscriberFilter,
  type SubscriberSource,
  type SubscriberState,
} from './consent';

/**
 * The news list (ADR 022): one row per address with its state, and beside it the events that
 * prove each consent and each departure (time, source, wording version). No IP address is kept:
 * the privacy page promises none.
 */
export interface Subscriber {
  id: string;
  email: string;
  language: Lang;
  source: SubscriberSource;
  status: SubscriberState;
  suppressedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

type Row = { id: string; email: string; language: string; source: string; status: string; suppressed_reason: string | null; soft_bounces: number; created_at: string; updated_at: string };

const toSubscriber = (r: Row): Subscriber => ({
  id: r.id,
  email: r.email,
  language: r.language as Lang,
  source: r.source as SubscriberSource,
  status: r.status as SubscriberState,
  suppressedReason: r.suppressed_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function subscriberByEmail(db: DB, email: string): Promise<Subscriber | undefined> {
  const r = await db.selectFrom('subscribers').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
  return r && toSubscriber(r);
}

export async function subscriberById(db: DB, id: string): Promise<Subscriber | undefined> {
  const r = await db.selectFrom('subscribers').selectAll().where('id', '=', id).executeTakeFirst();
  return r && toSubscriber(r);
}

export interface EventInput {
  kind: 'requested' | 'confirmed' | 'unsubscribed' | 'suppressed' | 'lifted' | 'joined';
  source: string;
  wordingVersion?: string | null;
  detail?: string | null;
}

export async function recordEvent(db: DB, subscriberId: string, e: EventInput, now: Date): Promise<void> {
  await db
    .insertInto('subscriber_events')
    .values({ id: randomUUID(), subscriber_id: subscriberId, kind: e.kind, at: now.toISOString(), source: e.source, wording_version: e.wordingVersion ?? null, detail: e.detail ?? null })
    .execute();
}

export type SignupResult = { kind: 'ask'; subscriber: Subscriber; token: string } | { kind: 'nothing' };

/**
 * A sign-up from the form: the address waits for its confirmation with a new single-use link
 * (48 h), and the request is recorded with the wording version and the page. Already subscribed or
 * suppressed: nothing changes and nothing is mailed, and the caller answers the same either way.
 */
export async function requestSignup(db: DB, input: { email: string; language: Lang; from: string; wordingVersion: string }, now = new Date()): Promise<SignupResult> {
  const email = normalEmail(input.email);
  return db.transaction().execute(async (trx) => {
    const existing = await subscriberByEmail(trx, email);
    if (afterSignup(existing?.status) === 'nothing') return { kind: 'nothing' as const };
    const at = now.toISOString();
    let id = existing?.id;
    if (id) {
      await trx.updateTable('subscribers').set({ status: 'pending', language: input.language, source: 'signup', updated_at: at }).where('id', '=', id).execute();
    } else {
      id = randomUUID();
      await trx.insertInto('subscribers').values({ id, email, language: input.language, source: 'signup', status: 'pending', suppressed_reason: null, soft_bounces: 0, created_at: at, updated_at: at }).execute();
    }
    await recordEvent(trx, id, { kind: 'requested', source: 'signup', wordingVersion: input.wordingVersion, detail: input.from }, now);
    const { token, hash } = newToken();
    await trx.insertInto('subscriber_tokens').values({ id: hash, subscriber_id: id, created_at: at, expires_at: new Date(now.getTime() + OPT_IN_TTL_MS).toISOString(), used_at: null }).execute();
    return { kind: 'ask' as const, subscriber: (await subscriberById(trx, id))!, token };
  });
}

export type ConfirmResult = { kind: 'confirmed'; subscriber: Subscriber } | { kind: 'expired' } | { kind: 'invalid' };

/**
 * The confirmation link's POST (its GET only shows a button: mail scanners follow links). The token
 * is spent by one conditional UPDATE, so a second use, or two at once, find nothing to spend.
 */
export async function confirmSignup(db: DB, token: string, now = new Date()): Promise<ConfirmResult> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('subscriber_tokens').selectAll().where('id', '=', hashToken(token)).executeTakeFirst();
    if (!row || row.used_at !== null) return { kind: 'invalid' as const };
    if (row.expires_at <= at) return { kind: 'expired' as const };
    const spent = await trx.updateTable('subscriber_tokens').set({ used_at: at }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return { kind: 'invalid' as const };
    const subscriber = await subscriberById(trx, row.subscriber_id);
    if (!subscriber || !confirms(subscriber.status)) return { kind: 'invalid' as const };
    const requested = await trx
      .selectFrom('subscriber_events')
      .select(['wording_version', 'detail'])
      .where('subscriber_id', '=', subscriber.id)
      .where('kind', '=', 'requested')
      .orderBy('at', 'desc')
      .executeTakeFirst();
    await trx.updateTable('subscribers').set({ status: 'subscribed', updated_at: at }).where('id', '=', subscriber.id).execute();
    await recordEvent(trx, subscriber.id, { kind: 'confirmed', source: 'signup', wordingVersion: requested?.wording_version ?? null, detail: requested?.detail ?? null }, now);
    return { kind: 'confirmed' as const, subscriber: { ...subscriber, status: 'subscribed' as const, updatedAt: at } };
  });
}

/**
 * An address that refuses mail for good (a permanent SMTP refusal, a complaint): no letter goes to
 * it again, whatever its state. Idempotent. Returns whether this call suppressed it.
 */
export async function suppress(db: DB, email: string, reason: string, source: 'smtp' | 'admin' | 'provider', now = new Date()): Promise<boolean> {
  const s = await subscriberByEmail(db, email);
  if (!s || s.status === 'suppressed') return false;
  const at = now.toISOString();
  const r = await db.updateTable('subscribers').set({ status: 'suppressed', suppressed_reason: reason, updated_at: at }).where('id', '=', s.id).where('status', '!=', 'suppressed').executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await recordEvent(db, s.id, { kind: 'suppressed', source, detail: reason }, now);
  return true;
}

/**
 * An Admin lifts a suppression (the address was refused by mistake, the mailbox exists again),
 * with a reason, audited. The address does not come back to the list: it is 'unsubscribed', and
 * its owner subscribes again (a new opt-in) if they want the letters.
 */
export async function liftSuppression(db: DB, actor: Actor, subscriberId: string, reason: string, now = new Date()): Promise<'lifted' | 'not_suppressed' | 'no_reason'> {
  const why = reason.trim().slice(0, LIFT_REASON_MAX);
  if (!why) return 'no_reason';
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('subscribers')
      .set({ status: 'unsubscribed', suppressed_reason: null, updated_at: now.toISOString() })
      .where('id', '=', subscriberId)
      .where('status', '=', 'suppressed')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return 'not_suppressed' as const;
    await recordEvent(trx, subscriberId, { kind: 'lifted', source: 'admin', detail: why }, now);
    await audit(trx, actor, 'subscriber.suppression_lifted', subscriberId, { reason: why });
    return 'lifted' as const;
  });
}

/**
 * A temporary bounce the provider reported: after `limit` in a row the address is suppressed.
 * Returns whether this one suppressed it.
 */
export async function softBounce(db: DB, email: string, limit: number, detail: string, now = new Date()): Promise<boolean> {
  const s = await subscriberByEmail(db, email);
  if (!s || s.status === 'suppressed') return false;
  const row = await db
    .updateTable('subscribers')
    .set((eb) => ({ soft_bounces: eb('soft_bounces', '+', 1), updated_at: now.toISOString() }))
    .where('id', '=', s.id)
    .returning('soft_bounces')
    .executeTakeFirstOrThrow();
  if (Number(row.soft_bounces) < limit) return false;
  return suppress(db, email, `${limit} rebonds temporaires de suite ; dernier : ${detail}`, 'provider', now);
}

/** A delivery the provider confirmed: the run of temporary bounces starts again. */
export async function delivered(db: DB, email: string): Promise<void> {
  await db.updateTable('subscribers').set({ soft_bounces: 0 }).where('email', '=', normalEmail(email)).where('soft_bounces', '>', 0).execute();
}

/** When the address last left the list (to compare with a later consent). */
async function leftAt(db: DB, subscriberId: string): Promise<string | null> {
  const r = await db.selectFrom('subscriber_events').select('at').where('subscriber_id', '=', subscriberId).where('kind', '=', 'unsubscribed').orderBy('at', 'desc').executeTakeFirst();
  return r?.at ?? null;
}

/**
 * A consent given elsewhere (the donation form's box: source 'donor') joins the list directly: the
 * box is the consent, and the payment proved the address. `ref` (the donation) is kept as proof.
 * Returns whether the address joined.
 */
export async function joinFromConsent(
  db: DB,
  input: { email: string; language: Lang; source: Exclude<SubscriberSource, 'signup'>; givenAt: string; wordingVersion: string; ref: string },
  now = new Date(),
): Promise<boolean> {
  const email = normalEmail(input.email);
  return db.transaction().execute(async (trx) => {
    const existing = await subscriberByEmail(trx, email);
    if (afterDonorConsent(existing?.status, input.givenAt, existing ? await leftAt(trx, existing.id) : null) === 'nothing') return false;
    const at = now.toISOString();
    let id = existing?.id;
    if (id) {
      await trx.updateTable('subscribers').set({ status: 'subscribed', source: input.source, updated_at: at }).where('id', '=', id).execute();
    } else {
      id = randomUUID();
      await trx.insertInto('subscribers').values({ id, email, language: input.language, source: input.source, status: 'subscribed', suppressed_reason: null, soft_bounces: 0, created_at: at, updated_at: at }).execute();
    }
    await recordEvent(trx, id, { kind: 'joined', source: input.source, wordingVersion: input.wordingVersion, detail: input.ref }, new Date(input.givenAt));
    return true;
  });
}

/** The back office's list, newest first; `q` searches addresses (case-insensitive on both databases). */
export async function listSubscribers(db: DB, f: SubscriberFilter, limit = 500): Promise<Subscriber[]> {
  let q = db.selectFrom('subscribers').selectAll();
  if (f.status) q = q.where('status', '=', f.status);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.language) q = q.where('language', '=', f.language);
  if (f.q) q = q.where((eb) => eb(eb.fn('lower', ['email']), 'like', `%${f.q!.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toSubscriber);
}

/** Counts per state (the back office's summary, shown to Éditeurs too). */
export async function countByState(db: DB): Promise<Record<SubscriberState, number>> {
  const rows = await db.selectFrom('subscribers').select(['status', (eb) => eb.fn.countAll<string | number>().as('n')]).groupBy('status').execute();
  const out: Record<SubscriberState, number> = { pending: 0, subscribed: 0, unsubscribed: 0, suppressed: 0 };
  for (const r of rows) out[r.status as SubscriberState] = Number(r.n);
  return out;
}

export interface SubscriberEvent {
  kind: string;
  at: string;
  source: string;
  wordingVersion: string | null;
  detail: string | null;
}

/** The subscription and its proof, for a person's data export (RGPD). */
export async function subscriptionOf(db: DB, email: string): Promise<(Subscriber & { events: SubscriberEvent[] }) | null> {
  const s = await subscriberByEmail(db, email);
  if (!s) return null;
  const events = await db.selectFrom('subscriber_events').selectAll().where('subscriber_id', '=', s.id).orderBy('at').execute();
  return { ...s, events: events.map((e) => ({ kind: e.kind, at: e.at, source: e.source, wordingVersion: e.wording_version, detail: e.detail })) };
}

/**
 * Erases the subscription with its proof and links (a person's erasure). The letters' queue keeps
 * only the subscriber's id, which then names nobody: the letters' counts stay true. Returns rows removed.
 */
export async function eraseSubscription(db: DB, email: string): Promise<number> {
  const s = await subscriberByEmail(db, email);
  if (!s) return 0;
  await db.deleteFrom('subscriber_events').where('subscriber_id', '=', s.id).execute();
  await db.deleteFrom('subscriber_tokens').where('subscriber_id', '=', s.id).execute();
  await db.deleteFrom('subscribers').where('id', '=', s.id).execute();
  return 1;
}

/**
 * An import undone (ADR 036): the addresses it alone brought (their only event is its join, proof
 * `ref`) leave the list with their proof; anyone who also consented another way stays. Answers how many.
 */
export async function removeJoinedBy(db: DB, ref: string): Promise<number> {
  const joined = await db.selectFrom('subscriber_events').select('subscriber_id').where('kind', '=', 'joined').where('source', '=', 'import').where('detail', '=', ref).execute();
  let removed = 0;
  for (const { subscriber_id } of joined) {
    const events = await db.selectFrom('subscriber_events').select('id').where('subscriber_id', '=', subscriber_id).execute();
    if (events.length !== 1) continue;
    await db.deleteFrom('subscriber_events').where('subscriber_id', '=', subscriber_id).execute();
    await db.deleteFrom('subscribers').where('id', '=', subscriber_id).where('source', '=', 'import').execute();
    removed++;
  }
  return removed;
}
