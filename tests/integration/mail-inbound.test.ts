import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailgunSignature, MAX_AGE_S } from '~/domain/letters/bounces/mailgun.server';
import { footerOf, letterMail } from '~/domain/letters/letters.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail, subscriptionOf } from '~/domain/subscribers/subscribers.server';
import { runtime } from '~/lib/runtime.server';
import { action as inbound } from '~/routes/letters/webhook-mailgun-inbound';
import { describeEachDialect } from '../support/db';
import { routeContext } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'mail-inbound-'.padEnd(48, 'i');
const KEY = 'key-mailgun-inbound-signing';
const ORIGIN = 'https://fondation.example.org';

/**
 * The List-Unsubscribe mailto processed (ADR 022): a reader's mail to the unsubscribe mailbox,
 * forwarded by a Mailgun route as a signed form POST, unsubscribes the reader its subject names at
 * once; an unsigned or stale one changes nothing; a replay is harmless; a mail naming nobody is
 * accepted and ignored.
 */
describeEachDialect('the unsubscribe mailto, forwarded by Mailgun, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET, { MAILGUN_WEBHOOK_SIGNING_KEY: KEY, PUBLIC_URL: ORIGIN });
    for (const email of ['leaver@x.org', 'stayer@x.org']) {
      const r = await requestSignup(db(), { email, language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
      if (r.kind === 'ask') await confirmSignup(db(), r.token);
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** The mailto of the letter this reader received, as their mail client reads the header. */
  async function mailtoOf(email: string): Promise<{ to: string; subject: string }> {
    const reader = (await subscriberByEmail(db(), email))!;
    const mail = await letterMail({ versions: { fr: { subject: 'Nouvelles', body: 'Texte', link: '', image: '' } } }, reader, { origin: ORIGIN, appSecret: APP_SECRET }, await footerOf(db()));
    const url = new URL(/<(mailto:[^>]+)>/.exec(mail.headers!['List-Unsubscribe'])![1]);
    return { to: url.pathname, subject: url.searchParams.get('subject')! };
  }

  /** Mailgun's forward of a received mail: multipart form fields, signed. */
  const forward = (fields: Record<string, string>, { key = KEY, at = Math.floor(Date.now() / 1000), token = randomBytes(25).toString('hex') } = {}) => {
    const form = new FormData();
    const timestamp = String(at);
    for (const [k, v] of Object.entries({ ...fields, timestamp, token, signature: mailgunSignature(key, timestamp, token) })) form.set(k, v);
    return form;
  };
  const post = async (form: FormData) =>
    (await inbound({ request: new Request(`${ORIGIN}/webhooks/mail/mailgun/entrant`, { method: 'POST', body: form }), context: routeContext(), params: {}, unstable_pattern: '' } as never)) as Response;
  const status = async (email: string) => (await subscriberByEmail(db(), email))?.status;

  it('refuses a forward not signed with the key, or too old, and changes nothing', async () => {
    const { to, subject } = await mailtoOf('leaver@x.org');
    expect((await post(forward({ recipient: to, subject }, { key: 'another-key' }))).status).toBe(401);
    expect((await post(forward({ recipient: to, subject }, { at: Math.floor(Date.now() / 1000) - MAX_AGE_S - 60 }))).status).toBe(401);
    const unsigned = new FormData();
    unsigned.set('subject', subject);
    expect((await post(unsigned)).status).toBe(401);
    expect(await status('leaver@x.org')).toBe('subscribed');
  });

  it('unsubscribes the reader its subject names at once, even answered with "Re:"; a replay and a mail naming nobody change nothing', async () => {
    const { to, subject } = await mailtoOf('leaver@x.org');
    const mail = forward({ recipient: to, sender: 'leaver@x.org', subject: `Re: ${subject}`, 'body-plain': 'Merci de me retirer.' });
    const first = await post(mail);
    expect([first.status, await first.text()]).toEqual([200, 'Unsubscribed']);
    expect(await status('leaver@x.org')).toBe('unsubscribed');
    expect(await status('stayer@x.org')).toBe('subscribed');
    expect((await post(mail)).status).toBe(200);
    const departures = (await subscriptionOf(db(), 'leaver@x.org'))!.events.filter((e) => e.kind === 'unsubscribed');
    expect(departures.map((e) => e.source)).toEqual(['mailto']);

    const tampered = await post(forward({ recipient: to, subject: `${subject.slice(0, -2)}xx` }));
    expect([tampered.status, await tampered.text()]).toEqual([200, 'Ignored']);
    const chat = await post(forward({ recipient: to, subject: 'Question sur mon reçu' }));
    expect([chat.status, await chat.text()]).toEqual([200, 'Ignored']);
    expect(await status('stayer@x.org')).toBe('subscribed');
  });
});
