import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * A repair (issue 39, ADR 022): until this version the donor space's "Ne plus recevoir les
 * nouvelles" withdrew the consent given with the donor's gifts but left the address on the news
 * list, so the letters kept coming. Every address still subscribed (or waiting for its
 * confirmation) whose latest word was such a withdrawal leaves the list now, as of the day it asked:
 * its departure is recorded with that date and the source 'space', and its pending links die. An
 * address that consented again after withdrawing (a confirmed sign-up, a newly ticked box with a
 * gift, a member's news box) is left as it is: that later consent is its latest word.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const listed: { id: string; email: string }[] = await db.selectFrom('subscribers').select(['id', 'email']).where('status', 'in', ['subscribed', 'pending']).execute();
  for (const s of listed) {
    const gifts: { given_at: string; withdrawn_at: string | null }[] = await db
      .selectFrom('donor_consents')
      .innerJoin('donations', 'donations.id', 'donor_consents.donation_id')
      .select(['donor_consents.given_at', 'donor_consents.withdrawn_at'])
      .where('donor_consents.kind', '=', 'newsletter')
      .where((eb) => eb(eb.fn('lower', ['donations.donor_email']), '=', s.email))
      .execute();
    const withdrawn = gifts.map((g) => g.withdrawn_at).filter((w): w is string => w !== null).sort().at(-1);
    if (!withdrawn) continue;
    const events: { at: string }[] = await db.selectFrom('subscriber_events').select('at').where('subscriber_id', '=', s.id).where('kind', 'in', ['requested', 'confirmed', 'joined']).execute();
    const members: { news_consent_at: string | null }[] = await db.selectFrom('memberships').select('news_consent_at').where((eb) => eb(eb.fn('lower', ['email']), '=', s.email)).execute();
    const consents = [...events.map((e) => e.at), ...gifts.filter((g) => g.withdrawn_at === null).map((g) => g.given_at), ...members.map((m) => m.news_consent_at).filter((c): c is string => c !== null)];
    if (consents.some((c) => c > withdrawn)) continue;
    await db.updateTable('subscribers').set({ status: 'unsubscribed', updated_at: withdrawn }).where('id', '=', s.id).execute();
    await db.updateTable('subscriber_tokens').set({ used_at: withdrawn }).where('subscriber_id', '=', s.id).where('used_at', 'is', null).execute();
    await db
      .insertInto('subscriber_events')
      .values({ id: randomUUID(), subscriber_id: s.id, kind: 'unsubscribed', at: withdrawn, source: 'space', wording_version: null, detail: 'retrait fait dans l’espace donateur, appliqué à la liste par la migration 019' })
      .execute();
  }
}

/** Nothing to undo: the departures stand (a withdrawn consent is never given back by a downgrade). */
export async function down(): Promise<void> {}
