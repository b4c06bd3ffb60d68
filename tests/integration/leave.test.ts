import { afterEach, beforeEach, expect, it } from 'vitest';
import { hasNewsConsent } from '~/domain/donations/consent.server';
import { recordNewsletterConsent } from '~/domain/donors/consent.server';
import { createMember, hasMemberNewsConsent } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { getsNews, leave } from '~/domain/subscribers/leave.server';
import { confirmSignup, requestSignup, subscriberByEmail, subscriptionOf, suppress } from '~/domain/subscribers/subscribers.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { memberInput, membershipType } from '../support/membership';

const T0 = new Date('2026-11-28T09:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const ADMIN = { id: 'u1', name: 'Alice Admin' };

/** `leave`, the one way out of the news (issue 39), branch by branch: what each kind of address ends as. */
describeEachDialect('leaving the news, on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.destroy();
  });

  const gift = async (id: string, email: string) => {
    await t.db.insertInto('donations').values(ledgerRow(id, T0.toISOString(), { donor_email: email })).execute();
    await recordNewsletterConsent(t.db, id, T0);
  };
  const member = async (email: string, news = true) => createMember(t.db, ADMIN, memberInput(await createType(t.db, ADMIN, membershipType()), { email, exempt: true, news }));
  const departures = async (email: string) => (await subscriptionOf(t.db, email))?.events.filter((e) => e.kind === 'unsubscribed').map((e) => ({ at: e.at, source: e.source, detail: e.detail })) ?? [];
  const audits = () => t.db.selectFrom('audit_log').select(['action', 'target', 'details']).execute();

  it('an address nobody knows: nothing changes, nothing is created', async () => {
    expect(await leave(t.db, 'nobody@example.org', 'space', { now: T0, actor: ADMIN })).toBe(false);
    expect(await subscriberByEmail(t.db, 'nobody@example.org')).toBeUndefined();
    expect(await audits()).toEqual([]);
    expect(await getsNews(t.db, 'nobody@example.org')).toBe(false);
  });

  it('an address waiting for its confirmation leaves: its link dies, the departure is proved once, a second call changes nothing', async () => {
    const r = await requestSignup(t.db, { email: 'Wait@Example.org', language: 'en', from: '/', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind !== 'ask') throw new Error('expected ask');
    expect(await getsNews(t.db, 'wait@example.org')).toBe(true);
    expect(await leave(t.db, ' WAIT@example.org ', 'page', { now: later(1000) })).toBe(true);
    expect(await subscriberByEmail(t.db, 'wait@example.org')).toMatchObject({ status: 'unsubscribed', language: 'en', updatedAt: later(1000).toISOString() });
    expect(await t.db.selectFrom('subscriber_tokens').select('used_at').execute()).toEqual([{ used_at: later(1000).toISOString() }]);
    expect((await confirmSignup(t.db, r.token, later(2000))).kind).toBe('invalid');
    expect(await departures('wait@example.org')).toEqual([{ at: later(1000).toISOString(), source: 'page', detail: null }]);
    expect(await leave(t.db, 'wait@example.org', 'page', { now: later(3000), actor: ADMIN })).toBe(false);
    expect(await departures('wait@example.org')).toHaveLength(1);
    expect(await audits()).toEqual([]);
    expect(await getsNews(t.db, 'wait@example.org')).toBe(false);
  });

  it('a subscriber an Admin takes off is audited by the list’s id with the door and the consents withdrawn', async () => {
    const r = await requestSignup(t.db, { email: 'sub@example.org', language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind === 'ask') await confirmSignup(t.db, r.token, T0);
    await gift('g-sub', 'sub@example.org');
    expect(await getsNews(t.db, 'sub@example.org')).toBe(true);
    expect(await leave(t.db, 'sub@example.org', 'admin', { now: later(1), actor: ADMIN })).toBe(true);
    const id = (await subscriberByEmail(t.db, 'sub@example.org'))!.id;
    expect(await audits()).toEqual([{ action: 'subscriber.removed', target: id, details: JSON.stringify({ source: 'admin', consents: 1 }) }]);
    expect(await departures('sub@example.org')).toEqual([{ at: later(1).toISOString(), source: 'admin', detail: 'consentements retirés : 1' }]);
  });

  it('consents not yet on the list (a gift’s and a membership’s box) are withdrawn and leave a departure a later sync cannot pass', async () => {
    await gift('g-both', 'both@example.org');
    await member('both@example.org');
    await member('onlymember@example.org');
    expect(await getsNews(t.db, 'both@example.org')).toBe(true);
    expect(await getsNews(t.db, 'onlymember@example.org')).toBe(true);
    expect(await leave(t.db, 'both@example.org', 'space', { now: later(1) })).toBe(true);
    expect(await subscriberByEmail(t.db, 'both@example.org')).toMatchObject({ status: 'unsubscribed', source: 'donor', language: 'fr' });
    expect(await departures('both@example.org')).toEqual([{ at: later(1).toISOString(), source: 'space', detail: 'consentements retirés : 2' }]);
    expect(await hasNewsConsent(t.db, 'both@example.org')).toBe(false);
    expect(await hasMemberNewsConsent(t.db, 'both@example.org')).toBe(false);
    expect(await getsNews(t.db, 'both@example.org')).toBe(false);

    expect(await leave(t.db, 'onlymember@example.org', 'space', { now: later(2) })).toBe(true);
    expect(await subscriberByEmail(t.db, 'onlymember@example.org')).toMatchObject({ status: 'unsubscribed', source: 'member' });
    expect(await departures('onlymember@example.org')).toEqual([{ at: later(2).toISOString(), source: 'space', detail: 'consentements retirés : 1' }]);
  });

  it('an address that had left with a consent still standing (the old leaving link kept a member’s box) records this later word', async () => {
    await member('old@example.org');
    const r = await requestSignup(t.db, { email: 'old@example.org', language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind === 'ask') await confirmSignup(t.db, r.token, T0);
    // As the old letter link left it: off the list, the member's box still ticked.
    await t.db.updateTable('subscribers').set({ status: 'unsubscribed' }).where('email', '=', 'old@example.org').execute();
    expect(await getsNews(t.db, 'old@example.org')).toBe(false);
    expect(await leave(t.db, 'old@example.org', 'one-click', { now: later(5) })).toBe(true);
    expect(await subscriberByEmail(t.db, 'old@example.org')).toMatchObject({ status: 'unsubscribed', updatedAt: later(5).toISOString() });
    expect(await departures('old@example.org')).toEqual([{ at: later(5).toISOString(), source: 'one-click', detail: 'consentements retirés : 1' }]);
    expect(await hasMemberNewsConsent(t.db, 'old@example.org')).toBe(false);
  });

  it('a suppressed address stays suppressed; its consents are withdrawn all the same', async () => {
    const r = await requestSignup(t.db, { email: 'gone@example.org', language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind === 'ask') await confirmSignup(t.db, r.token, T0);
    await suppress(t.db, 'gone@example.org', '550 no such user', 'smtp', T0);
    await gift('g-gone', 'gone@example.org');
    expect(await getsNews(t.db, 'gone@example.org')).toBe(false);
    expect(await leave(t.db, 'gone@example.org', 'admin', { now: later(1), actor: ADMIN })).toBe(true);
    expect(await subscriberByEmail(t.db, 'gone@example.org')).toMatchObject({ status: 'suppressed', suppressedReason: '550 no such user' });
    expect(await departures('gone@example.org')).toEqual([]);
    expect(await hasNewsConsent(t.db, 'gone@example.org')).toBe(false);
    expect((await audits()).map((a) => a.details)).toEqual([JSON.stringify({ source: 'admin', consents: 1 })]);
  });

  it('a member who did not tick the news box, and a member without an address, are not asked to leave', async () => {
    await member('nobox@example.org', false);
    expect(await getsNews(t.db, 'nobox@example.org')).toBe(false);
    expect(await leave(t.db, 'nobox@example.org', 'space', { now: T0 })).toBe(false);
    expect(await subscriberByEmail(t.db, 'nobox@example.org')).toBeUndefined();
  });
});
