import { afterEach, beforeEach, expect, it } from 'vitest';
import { applyBounceEvent, SOFT_BOUNCE_LIMIT } from '~/domain/letters/bounces/apply.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail } from '~/domain/subscribers/subscribers.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

const T0 = new Date('2026-11-27T10:00:00.000Z');

/**
 * What a verified provider event does to the list (ADR 022), decided once for every provider: a
 * hard bounce or a complaint suppresses at once, recorded as the provider's doing; soft bounces
 * after SOFT_BOUNCE_LIMIT in a row; a replayed event id changes nothing and says so.
 */
describeEachDialect('a mail provider’s bounce and complaint events, on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.destroy();
  });

  async function subscribed(email: string) {
    const r = await requestSignup(t.db, { email, language: 'fr', from: '/blog', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind !== 'ask') throw new Error(`no opt-in asked: ${r.kind}`);
    await confirmSignup(t.db, r.token, T0);
    return (await subscriberByEmail(t.db, email))!;
  }
  const suppressions = async (subscriberId: string) =>
    (await t.db.selectFrom('subscriber_events').select(['source', 'detail']).where('subscriber_id', '=', subscriberId).where('kind', '=', 'suppressed').execute()).map((e) => ({ ...e }));

  it('a hard bounce suppresses at once, as the provider’s; the same event again is recognised and changes nothing', async () => {
    const s = await subscribed('gone@example.org');
    expect(await applyBounceEvent(t.db, { id: 'ev-1', kind: 'hard', recipient: 'gone@example.org', detail: '550 5.1.1 No such user' }, T0)).toBe(true);
    expect(await subscriberByEmail(t.db, 'gone@example.org')).toMatchObject({ status: 'suppressed', suppressedReason: '550 5.1.1 No such user' });
    expect(await suppressions(s.id)).toEqual([{ source: 'provider', detail: '550 5.1.1 No such user' }]);
    expect(await applyBounceEvent(t.db, { id: 'ev-1', kind: 'hard', recipient: 'gone@example.org', detail: '550 5.1.1 No such user' }, T0)).toBe(false);
    expect(await suppressions(s.id)).toHaveLength(1);
  });

  it('a complaint suppresses at once with its reason, as the provider’s', async () => {
    const s = await subscribed('angry@example.org');
    expect(await applyBounceEvent(t.db, { id: 'ev-2', kind: 'complaint', recipient: 'angry@example.org', detail: 'abuse report' }, T0)).toBe(true);
    expect(await suppressions(s.id)).toEqual([{ source: 'provider', detail: 'Plainte pour spam : abuse report' }]);
  });

  it(`soft bounces suppress only after ${SOFT_BOUNCE_LIMIT} in a row; a delivery in between starts the count again`, async () => {
    await subscribed('full@example.org');
    const soft = (id: string) => applyBounceEvent(t.db, { id, kind: 'soft', recipient: 'full@example.org', detail: '452 mailbox full' }, T0);
    await soft('s1');
    await soft('s2');
    expect(await applyBounceEvent(t.db, { id: 'd1', kind: 'delivered', recipient: 'full@example.org', detail: '' }, T0)).toBe(true);
    await soft('s3');
    await soft('s4');
    expect((await subscriberByEmail(t.db, 'full@example.org'))?.status).toBe('subscribed');
    await soft('s5');
    expect(await subscriberByEmail(t.db, 'full@example.org')).toMatchObject({ status: 'suppressed', suppressedReason: `${SOFT_BOUNCE_LIMIT} rebonds temporaires de suite ; dernier : 452 mailbox full` });
  });
});
