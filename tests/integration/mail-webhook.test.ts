import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailgunSignature, MAX_AGE_S } from '~/domain/letters/bounces/mailgun.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail } from '~/domain/subscribers/subscribers.server';
import { runtime } from '~/lib/runtime.server';
import { action as webhook } from '~/routes/letters/webhook-mailgun';
import { describeEachDialect } from '../support/db';
import { routeContext } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'mail-webhook-'.padEnd(48, 'w');
const KEY = 'key-mailgun-test-signing';

/**
 * Mailgun's notifications as its webhooks send them (signed JSON), through the route: a hard
 * bounce or a complaint suppresses at once, three soft bounces in a row too, a delivery resets the
 * run; a bad or stale signature changes nothing; a replay is harmless.
 */
describeEachDialect('bounce and complaint webhook (Mailgun), on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET, { MAILGUN_WEBHOOK_SIGNING_KEY: KEY });
    for (const email of ['hard@x.org', 'spam@x.org', 'soft@x.org', 'ok@x.org']) {
      const r = await requestSignup(db(), { email, language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
      if (r.kind === 'ask') await confirmSignup(db(), r.token);
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  const notification = (event: Record<string, unknown>, { key = KEY, at = Math.floor(Date.now() / 1000) } = {}) => {
    const timestamp = String(at);
    const token = randomBytes(25).toString('hex');
    return { signature: { timestamp, token, signature: mailgunSignature(key, timestamp, token) }, 'event-data': { id: randomBytes(8).toString('hex'), ...event } };
  };
  const post = async (body: unknown) =>
    (await webhook({ request: new Request('https://fondation.example.org/webhooks/mail/mailgun', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }), context: routeContext(), params: {}, unstable_pattern: '' } as never)) as Response;
  const status = async (email: string) => (await subscriberByEmail(db(), email))?.status;

  it('refuses a notification not signed with the key, or too old, and changes nothing', async () => {
    const hard = { event: 'failed', severity: 'permanent', recipient: 'ok@x.org' };
    expect((await post(notification(hard, { key: 'another-key' }))).status).toBe(401);
    expect((await post(notification(hard, { at: Math.floor(Date.now() / 1000) - MAX_AGE_S - 60 }))).status).toBe(401);
    expect((await post({ 'event-data': hard })).status).toBe(401);
    expect(await status('ok@x.org')).toBe('subscribed');
  });

  it('suppresses on a hard bounce and on a complaint at once; a replay is harmless', async () => {
    const bounce = notification({ event: 'failed', severity: 'permanent', recipient: 'Hard@X.org', 'delivery-status': { code: 550, message: 'No such mailbox' } });
    expect((await post(bounce)).status).toBe(200);
    expect(await subscriberByEmail(db(), 'hard@x.org')).toMatchObject({ status: 'suppressed', suppressedReason: '550 No such mailbox' });
    expect((await post(bounce)).status).toBe(200);
    expect(await db().selectFrom('subscriber_events').select('kind').where('kind', '=', 'suppressed').execute()).toHaveLength(1);
    expect((await post(notification({ event: 'complained', recipient: 'spam@x.org' }))).status).toBe(200);
    expect((await subscriberByEmail(db(), 'spam@x.org'))?.suppressedReason).toBe('Plainte pour spam : complained');
  });

  it('suppresses after three soft bounces in a row, a delivery starting the count again', async () => {
    const soft = () => notification({ event: 'failed', severity: 'temporary', recipient: 'soft@x.org', 'delivery-status': { code: 452, message: 'Mailbox full' } });
    await post(soft());
    await post(soft());
    await post(notification({ event: 'delivered', recipient: 'soft@x.org' }));
    await post(soft());
    const second = soft();
    await post(second);
    // A replay does not count twice.
    await post(second);
    expect(await status('soft@x.org')).toBe('subscribed');
    await post(soft());
    expect(await subscriberByEmail(db(), 'soft@x.org')).toMatchObject({ status: 'suppressed', suppressedReason: '3 rebonds temporaires de suite ; dernier : 452 Mailbox full' });
    // Other events are accepted and ignored.
    expect((await post(notification({ event: 'opened', recipient: 'ok@x.org' }))).status).toBe(200);
    expect(await status('ok@x.org')).toBe('subscribed');
  });
});
