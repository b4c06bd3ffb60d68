import { randomUUID } from 'node:crypto';
import type { DB } from '~db/index';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { hasNewsConsent, withdrawNewsConsents } from '~/domain/donations/consent.server';
import { hasMemberNewsConsent, withdrawMemberNewsConsent } from '~/domain/membership/register.server';
import { leaves, normalEmail, receivesLetters, type LeaveSource } from './consent';
import { recordEvent, subscriberByEmail } from './subscribers.server';

/**
 * The one way to leave the news (ADR 022, issue 39): whichever door a person uses — a letter's
 * page or its one-click POST, the unsubscribe mail, their donor or member space, an Admin at their
 * request — the address stops receiving letters at once and every consent that fed the list is
 * taken back in the same transaction:
 *  - the list's row leaves 'subscribed' or 'pending' for 'unsubscribed' (its pending confirmation
 *    links die with it), and the departure is recorded with its door as the proof of withdrawal;
 *  - the news consent given with any gift of that address, and the news box of any membership of
 *    it, are withdrawn, so the letters' sync (letters/sources.server.ts) has nothing to bring back;
 *  - an address that had consented but was not on the list yet (the sync had not run) gets a row
 *    in 'unsubscribed' with that proof: a consent dated before the departure can never join it
 *    afterwards (`afterDonorConsent`), even one read by a sync already under way.
 * Only a new consent given after the departure brings the address back: a confirmed sign-up
 * (double opt-in), a newly ticked box with a paid gift or on a membership form.
 * A suppressed address stays suppressed (it refuses mail); its consents are withdrawn all the same.
 * Idempotent: returns whether anything changed.
 */
export async function leave(db: DB, email: string, source: LeaveSource, opts: { now?: Date; actor?: Actor } = {}): Promise<boolean> {
  const address = normalEmail(email);
  const now = opts.now ?? new Date();
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const gifts = await withdrawNewsConsents(trx, address, now);
    const members = await withdrawMemberNewsConsent(trx, address, now);
    const consents = gifts + members;
    const s = await subscriberByEmail(trx, address);
    let id = s?.id;
    let departed = false;
    if (s && leaves(s.status)) {
      const r = await trx.updateTable('subscribers').set({ status: 'unsubscribed', updated_at: at }).where('id', '=', s.id).where('status', 'in', ['pending', 'subscribed']).executeTakeFirst();
      departed = Number(r.numUpdatedRows) === 1;
      if (departed) await trx.updateTable('subscriber_tokens').set({ used_at: at }).where('subscriber_id', '=', s.id).where('used_at', 'is', null).execute();
    } else if (!s && consents > 0) {
      id = randomUUID();
      await trx
        .insertInto('subscribers')
        .values({ id, email: address, language: 'fr', source: gifts > 0 ? 'donor' : 'member', status: 'unsubscribed', suppressed_reason: null, soft_bounces: 0, created_at: at, updated_at: at })
        .execute();
      departed = true;
    } else if (s?.status === 'unsubscribed' && consents > 0) {
      // A consent that stood after an earlier departure is taken back now: this is the latest word.
      await trx.updateTable('subscribers').set({ updated_at: at }).where('id', '=', s.id).execute();
      departed = true;
    }
    if (departed) await recordEvent(trx, id!, { kind: 'unsubscribed', source, detail: consents > 0 ? `consentements retirés : ${consents}` : null }, now);
    const changed = departed || consents > 0;
    // The list's id, never the address: a person's erasure leaves no address in the audit log.
    if (changed && opts.actor) await audit(trx, opts.actor, 'subscriber.removed', id ?? '', { source, consents });
    return changed;
  });
}

/**
 * Whether the address gets the news, or will at the sync's next pass (a minute at most): on the
 * list (subscribed, or waiting for its confirmation), or, not on it yet, with a consent that feeds
 * it. The donor and member space offer to leave exactly then.
 */
export async function getsNews(db: DB, email: string): Promise<boolean> {
  const s = await subscriberByEmail(db, email);
  if (s) return receivesLetters(s.status) || s.status === 'pending';
  return (await hasNewsConsent(db, email)) || (await hasMemberNewsConsent(db, email));
}
