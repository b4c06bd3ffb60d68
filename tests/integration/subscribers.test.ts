import { afterEach, beforeEach, expect, it } from 'vitest';
import { recordNewsletterConsent } from '~/domain/donors/consent.server';
import { hasNewsConsent } from '~/domain/donations/consent.server';
import { leave } from '~/domain/subscribers/leave.server';
import { eraseDonorData, exportDonorData, donorExportCsv } from '~/domain/donors/personal-data.server';
import { syncSources } from '~/domain/letters/sources.server';
import { createLetter } from '~/domain/letters/letters.server';
import { enqueue } from '~/domain/letters/queue.server';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { leaveWithToken } from '~/domain/letters/leaving.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import {
  confirmSignup,
  countByState,
  liftSuppression,
  listSubscribers,
  requestSignup,
  subscriberByEmail,
  subscriptionOf,
  suppress,
} from '~/domain/subscribers/subscribers.server';
import { unsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';
import { privacyTexts, privacyTextsBeforeLetters, upgradePrivacyDefault } from '~db/seed-privacy';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { memberInput, membershipType } from '../support/membership';

const SECRET = 'subscribers-test-'.padEnd(48, 's');
// Now, not a fixed day: members are created now and counted from today (in Paris), so a pass
// dated another day would not find them (the fixed 2026-11-27 failed from the next Paris day on).
const T0 = new Date();
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3600_000;

describeEachDialect('the news list: opt-in, leaving, donors, personal data, on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.destroy();
  });

  const signup = (email: string, language: 'fr' | 'en' | 'es' = 'fr', now = T0) =>
    requestSignup(t.db, { email, language, from: '/blog', wordingVersion: CONSENT_WORDING_VERSION }, now);

  it('a sign-up waits for its confirmation; the link confirms once, and the proof names time, source, page and wording', async () => {
    const r = await signup('  Ana@Example.org ', 'en');
    expect(r.kind).toBe('ask');
    if (r.kind !== 'ask') return;
    expect(r.subscriber).toMatchObject({ email: 'ana@example.org', status: 'pending', language: 'en', source: 'signup' });
    expect(await confirmSignup(t.db, r.token, later(HOUR))).toMatchObject({ kind: 'confirmed', subscriber: { status: 'subscribed' } });
    expect(await confirmSignup(t.db, r.token, later(HOUR))).toEqual({ kind: 'invalid' });
    expect((await subscriberByEmail(t.db, 'ANA@example.org'))?.status).toBe('subscribed');
    const proof = await subscriptionOf(t.db, 'ana@example.org');
    expect(proof?.events.map((e) => [e.kind, e.at, e.source, e.wordingVersion, e.detail])).toEqual([
      ['requested', T0.toISOString(), 'signup', CONSENT_WORDING_VERSION, '/blog'],
      ['confirmed', later(HOUR).toISOString(), 'signup', CONSENT_WORDING_VERSION, '/blog'],
    ]);
  });

  it('a confirmation link expires after 48 hours, and an unknown one confirms nothing', async () => {
    const r = await signup('late@example.org');
    if (r.kind !== 'ask') throw new Error('expected ask');
    expect(await confirmSignup(t.db, r.token, later(48 * HOUR))).toEqual({ kind: 'expired' });
    expect(await confirmSignup(t.db, 'not-a-token', T0)).toEqual({ kind: 'invalid' });
    expect((await subscriberByEmail(t.db, 'late@example.org'))?.status).toBe('pending');
    // Just inside the 48 hours, a fresh link works.
    const again = await signup('late@example.org', 'fr', later(49 * HOUR));
    if (again.kind !== 'ask') throw new Error('expected ask');
    expect((await confirmSignup(t.db, again.token, later(49 * HOUR + 48 * HOUR - 1))).kind).toBe('confirmed');
  });

  it('a subscribed or suppressed address is neither changed nor mailed by the form', async () => {
    const r = await signup('sub@example.org');
    if (r.kind !== 'ask') throw new Error('expected ask');
    await confirmSignup(t.db, r.token, T0);
    expect(await signup('sub@example.org', 'es')).toEqual({ kind: 'nothing' });
    expect((await subscriberByEmail(t.db, 'sub@example.org'))?.language).toBe('fr');
    expect(await suppress(t.db, 'sub@example.org', '550 no such user', 'smtp', T0)).toBe(true);
    expect(await suppress(t.db, 'sub@example.org', '550 again', 'smtp', T0)).toBe(false);
    expect(await signup('sub@example.org')).toEqual({ kind: 'nothing' });
    expect(await subscriberByEmail(t.db, 'sub@example.org')).toMatchObject({ status: 'suppressed', suppressedReason: '550 no such user' });
  });

  it('leaving is at once and idempotent; coming back needs a new opt-in; a pending link dies with the departure', async () => {
    const r = await signup('leave@example.org');
    if (r.kind !== 'ask') throw new Error('expected ask');
    await leave(t.db, r.subscriber.email, 'one-click', { now: T0 });
    expect((await confirmSignup(t.db, r.token, T0)).kind).toBe('invalid');
    const again = await signup('leave@example.org', 'fr', later(1));
    if (again.kind !== 'ask') throw new Error('expected ask');
    await confirmSignup(t.db, again.token, later(2));
    const token = unsubscribeToken(SECRET, again.subscriber.id);
    expect(await leaveWithToken(t.db, SECRET, token, 'one-click', later(3))).toBe(true);
    expect(await leaveWithToken(t.db, SECRET, token, 'one-click', later(4))).toBe(true);
    expect((await subscriberByEmail(t.db, 'leave@example.org'))?.status).toBe('unsubscribed');
    const events = (await subscriptionOf(t.db, 'leave@example.org'))!.events.filter((e) => e.kind === 'unsubscribed');
    expect(events.map((e) => e.at)).toEqual([T0.toISOString(), later(3).toISOString()]);
    // A token signed with another secret, or tampered with, does nothing.
    expect(await leaveWithToken(t.db, 'another-secret'.padEnd(48, 'x'), token, 'one-click')).toBe(false);
    expect(await leaveWithToken(t.db, SECRET, `${token}x`, 'one-click')).toBe(false);
    // Signed by this site, for a subscriber since erased: nothing to leave.
    expect(await leaveWithToken(t.db, SECRET, unsubscribeToken(SECRET, 'erased-subscriber'), 'one-click')).toBe(false);
  });

  it('donors who ticked the box on a paid gift join as donors; leaving withdraws their consent; a later tick brings them back', async () => {
    await t.db.insertInto('donations').values([
      ledgerRow('d1', '2026-11-01T00:00:00.000Z', { donor_email: 'Don@Example.org', language: 'es' }),
      ledgerRow('d2', '2026-11-01T00:00:00.000Z', { donor_email: 'unpaid@example.org', status: 'pending' }),
      ledgerRow('d3', '2026-11-01T00:00:00.000Z', { donor_email: 'nobox@example.org' }),
    ]).execute();
    await recordNewsletterConsent(t.db, 'd1', new Date('2026-11-01T00:00:00.000Z'));
    await recordNewsletterConsent(t.db, 'd2', new Date('2026-11-01T00:00:00.000Z'));
    expect(await syncSources(t.db, T0)).toBe(1);
    expect(await syncSources(t.db, T0)).toBe(0);
    const donor = await subscriberByEmail(t.db, 'don@example.org');
    expect(donor).toMatchObject({ status: 'subscribed', source: 'donor', language: 'es' });
    expect(await subscriberByEmail(t.db, 'unpaid@example.org')).toBeUndefined();
    expect(await subscriberByEmail(t.db, 'nobox@example.org')).toBeUndefined();

    expect(await leaveWithToken(t.db, SECRET, unsubscribeToken(SECRET, donor!.id), 'page', later(1))).toBe(true);
    expect(await hasNewsConsent(t.db, 'don@example.org')).toBe(false);
    expect(await syncSources(t.db, later(2))).toBe(0);
    expect((await subscriberByEmail(t.db, 'don@example.org'))?.status).toBe('unsubscribed');

    await t.db.insertInto('donations').values(ledgerRow('d4', later(5).toISOString(), { donor_email: 'don@example.org' })).execute();
    await recordNewsletterConsent(t.db, 'd4', later(5));
    expect(await syncSources(t.db, later(6))).toBe(1);
    expect((await subscriberByEmail(t.db, 'don@example.org'))?.status).toBe('subscribed');
  });

  it('members up to date with an email who ticked the news box join as members, in their language; a letter to members reaches only them', async () => {
    const actor = { id: 'a1', name: 'Ada' };
    const type = await createType(t.db, actor, membershipType());
    const honorary = await createMember(t.db, actor, memberInput(type, { email: 'Hono@Example.org', language: 'en', exempt: true, news: true }));
    const unpaid = await createMember(t.db, actor, memberInput(type, { email: 'unpaid@example.org', news: true }));
    await createMember(t.db, actor, memberInput(type, { email: 'nobox@example.org', exempt: true }));
    await createMember(t.db, actor, memberInput(type, { email: '', exempt: true, news: true }));
    const reader = await signup('reader@example.org');
    if (reader.kind === 'ask') await confirmSignup(t.db, reader.token, T0);

    expect(await syncSources(t.db, T0)).toBe(1);
    expect(await subscriberByEmail(t.db, 'hono@example.org')).toMatchObject({ status: 'subscribed', source: 'member', language: 'en' });
    const proof = (await subscriptionOf(t.db, 'hono@example.org'))!.events;
    expect(proof).toMatchObject([{ kind: 'joined', source: 'member', wordingVersion: 'member-form-2026-11', detail: `membre n° ${honorary.number}` }]);
    expect(await subscriberByEmail(t.db, 'unpaid@example.org')).toBeUndefined();
    expect(await subscriberByEmail(t.db, 'nobox@example.org')).toBeUndefined();

    // Dues paid: the member is counted, and the next pass (which reads only what changed) finds them.
    await applyDuesPayment(t.db, { membershipId: unpaid.id, paymentId: 'pay-1', amountCents: 3000, paidAt: T0.toISOString(), method: 'card' });
    expect(await syncSources(t.db, later(HOUR))).toBe(1);
    expect(await subscriberByEmail(t.db, 'unpaid@example.org')).toMatchObject({ status: 'subscribed', source: 'member' });

    const letter = await createLetter(t.db, actor, { fr: { subject: 'Pour les membres', body: 'Texte', link: '', image: '' } }, { language: '', source: 'member' });
    expect(await enqueue(t.db, letter, { language: '', source: 'member' })).toBe(2);
  });

  it('each pass reads only what changed since the last one (less its overlap), not every consent again', async () => {
    await t.db.insertInto('donations').values(ledgerRow('d1', later(-HOUR).toISOString(), { donor_email: 'first@example.org' })).execute();
    await recordNewsletterConsent(t.db, 'd1', later(-HOUR));
    expect(await syncSources(t.db, T0)).toBe(1);
    // A consent written now but dated (with its gift) well before the last pass is not read again:
    // the pass looks back five minutes, not over the whole history.
    await t.db.insertInto('donations').values(ledgerRow('d2', later(-HOUR).toISOString(), { donor_email: 'old@example.org' })).execute();
    await recordNewsletterConsent(t.db, 'd2', later(-HOUR));
    // One dated within the overlap is.
    await t.db.insertInto('donations').values(ledgerRow('d3', later(-60_000).toISOString(), { donor_email: 'late@example.org' })).execute();
    await recordNewsletterConsent(t.db, 'd3', later(-60_000));
    expect(await syncSources(t.db, later(1000))).toBe(1);
    expect(await subscriberByEmail(t.db, 'late@example.org')).toMatchObject({ status: 'subscribed', source: 'donor' });
    expect(await subscriberByEmail(t.db, 'old@example.org')).toBeUndefined();
  });

  it('the list filters by state, source, language and address, and counts per state', async () => {
    for (const [email, lang] of [['a@x.org', 'fr'], ['b@x.org', 'en'], ['c@y.org', 'en']] as const) await signup(email, lang);
    const b = await subscriberByEmail(t.db, 'b@x.org');
    await leave(t.db, b!.email, 'page', { now: T0 });
    expect((await listSubscribers(t.db, { language: 'en' })).map((s) => s.email).sort()).toEqual(['b@x.org', 'c@y.org']);
    expect((await listSubscribers(t.db, { status: 'pending', q: 'X.ORG' })).map((s) => s.email)).toEqual(['a@x.org']);
    expect(await listSubscribers(t.db, { source: 'donor' })).toEqual([]);
    expect(await listSubscribers(t.db, { q: '%' })).toEqual([]);
    expect(await countByState(t.db)).toEqual({ pending: 2, subscribed: 0, unsubscribed: 1, suppressed: 0 });
  });

  it('a person’s export holds the subscription and its proof; erasure removes them', async () => {
    const r = await signup('gdpr@example.org', 'en');
    if (r.kind !== 'ask') throw new Error('expected ask');
    await confirmSignup(t.db, r.token, later(1));
    const x = await exportDonorData(t.db, 'gdpr@example.org', T0);
    expect(x.newsletter).toMatchObject({ status: 'subscribed', language: 'en', source: 'signup' });
    expect(x.newsletter!.events.map((e) => e.kind)).toEqual(['requested', 'confirmed']);
    expect(donorExportCsv(x)).toContain(`"newsletter";"";"${T0.toISOString()}";"";"";"";"";"requested"`);
    expect(await eraseDonorData(t.db, 'gdpr@example.org', { id: 'u1', name: 'Admin' })).toMatchObject({ ok: true });
    expect(await subscriberByEmail(t.db, 'gdpr@example.org')).toBeUndefined();
    expect(await t.db.selectFrom('subscriber_events').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('subscriber_tokens').selectAll().execute()).toEqual([]);
    expect((await exportDonorData(t.db, 'gdpr@example.org', T0)).newsletter).toBeNull();
  });

  it('an Admin lifts a suppression with a reason, audited; the address stays out of the list until a new opt-in', async () => {
    const r = await signup('bounced@example.org');
    if (r.kind !== 'ask') throw new Error('expected ask');
    await confirmSignup(t.db, r.token, T0);
    const admin = { id: 'a1', name: 'Ada' };
    expect(await liftSuppression(t.db, admin, r.subscriber.id, 'anything', T0)).toBe('not_suppressed');
    await suppress(t.db, 'bounced@example.org', '550 mailbox unavailable', 'smtp', T0);
    expect(await liftSuppression(t.db, admin, r.subscriber.id, '   ', later(1))).toBe('no_reason');
    expect((await subscriberByEmail(t.db, 'bounced@example.org'))?.status).toBe('suppressed');
    expect(await liftSuppression(t.db, admin, r.subscriber.id, ' Boîte recréée, confirmé par téléphone ', later(2))).toBe('lifted');
    expect(await subscriberByEmail(t.db, 'bounced@example.org')).toMatchObject({ status: 'unsubscribed', suppressedReason: null });
    expect(await liftSuppression(t.db, admin, r.subscriber.id, 'again', later(3))).toBe('not_suppressed');
    const events = (await subscriptionOf(t.db, 'bounced@example.org'))!.events;
    expect(events.at(-1)).toMatchObject({ kind: 'lifted', source: 'admin', detail: 'Boîte recréée, confirmé par téléphone', at: later(2).toISOString() });
    const logged = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'subscriber.suppression_lifted').execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ target: r.subscriber.id, user_name: 'Ada' });
    // Back on the list only through the form and its confirmation.
    const again = await signup('bounced@example.org', 'fr', later(4));
    expect(again.kind).toBe('ask');
  });

  it('the privacy page’s default, where nobody edited it, gains what the list keeps and that nothing tracks opens or clicks', async () => {
    const put = async (texts: unknown, version: number) => {
      await t.db.deleteFrom('page_content').where('page_id', '=', 'privacy').execute();
      await t.db.insertInto('page_content').values({ page_id: 'privacy', images: '{}', texts: JSON.stringify(texts), version, updated_at: T0.toISOString() }).execute();
    };
    await put(privacyTextsBeforeLetters(365), 4);
    expect(await upgradePrivacyDefault(t.db, 365)).toBe(true);
    const texts = JSON.parse((await t.db.selectFrom('page_content').select('texts').where('page_id', '=', 'privacy').executeTakeFirstOrThrow()).texts);
    expect(texts).toEqual(privacyTexts(365));
    expect(texts.fr.content).toContain('aucune adresse IP');
    expect(texts.fr.content).toContain('sans aucun suivi d’ouverture ni de clic');
    expect(texts.en.content).toContain('without any tracking of opens or clicks');
    expect(texts.es.content).toContain('sin ningún seguimiento de aperturas ni de clics');
    expect(await upgradePrivacyDefault(t.db, 365)).toBe(false);
    // An admin's text is left alone.
    const edited = { ...privacyTextsBeforeLetters(365), fr: { title: 'Confidentialité', content: '<p>Le nôtre.</p>' } };
    await put(edited, 4);
    expect(await upgradePrivacyDefault(t.db, 365)).toBe(false);
  });
});
