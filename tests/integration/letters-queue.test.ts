import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DB } from '~db/index';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail } from '~/domain/subscribers/subscribers.server';
import { leaveWithToken } from '~/domain/letters/leaving.server';
import type { LetterVersions } from '~/domain/letters/letter';
import { createLetter, getLetter, saveSendingRate, sendNow } from '~/domain/letters/letters.server';
import { saveSender } from '~/domain/letters/sender.server';
import { claim, enqueue, markAbandoned, queueCounts, release, settle } from '~/domain/letters/queue.server';
import { startLetterSending, type SendingDeps } from '~/domain/letters/worker.server';
import { closeMailTransports, deliverBulk, sendMail, type Mail } from '~/lib/mail.server';
import { recordNewsletterConsent } from '~/domain/donors/consent.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { startSmtp } from '../support/smtp';

const SECRET = 'letters-queue-test-'.padEnd(48, 'q');
const ORIGIN = 'https://fondation.example.org';
const ACTOR = { id: 'u1', name: 'Éva Éditrice' };
const T0 = new Date('2026-11-27T10:00:00.000Z');

const VERSIONS: LetterVersions = {
  fr: { subject: 'Nouvelles de Thiès', body: 'Bonjour,\n\nLa rentrée s’est bien passée.', link: '/blog/rentree', image: '/media/rentree.jpg' },
  en: { subject: 'News from Thiès', body: 'Hello,\n\nThe school year started well.', link: '/blog/rentree', image: '/media/rentree.jpg' },
};

/** Subscribed addresses, confirmed through their opt-in. */
async function subscribe(db: DB, emails: string[], language: 'fr' | 'en' | 'es' = 'fr') {
  for (const email of emails) {
    const r = await requestSignup(db, { email, language, from: '/', wordingVersion: CONSENT_WORDING_VERSION }, T0);
    if (r.kind !== 'ask') throw new Error(`not asked: ${email}`);
    await confirmSignup(db, r.token, T0);
  }
}

/** A header's value, unfolded (RFC 5322 lets a long one continue on lines that start with a space). */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw.split(/\r?\n\r?\n/)[0])?.[1].replace(/\r?\n[ \t]+/g, ' ').trim();

async function waitFor(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeEachDialect('the letters’ queue and sending, on %s', (dialect) => {
  let t: TestDb;
  const stops: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    t = await createTestDb(dialect);
    await saveSendingRate(t.db, ACTOR, { perSecond: 200, perHour: 100_000 });
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    closeMailTransports();
    await t.destroy();
  });

  const workers = (smtpUrl: string | undefined, n: number, extra: Partial<SendingDeps> = {}) => {
    for (let i = 0; i < n; i++) {
      stops.push(
        startLetterSending({
          db: t.db,
          site: { origin: ORIGIN, appSecret: SECRET },
          deliver: smtpUrl ? (m: Mail) => deliverBulk({ smtpUrl, from: 'Fondation THV <lettres@fondation.example.org>' }, m) : undefined,
          workerId: `w${i}`,
          idleMs: 50,
          ...extra,
        }),
      );
    }
  };
  const sent = async (id: string) => (await getLetter(t.db, id))?.status === 'sent';

  it('queues the chosen audience once, and of two workers claiming at once each row goes to one', async () => {
    await subscribe(t.db, ['a@x.org', 'b@x.org', 'c@x.org'], 'fr');
    await subscribe(t.db, ['d@x.org', 'e@x.org'], 'en');
    await requestSignup(t.db, { email: 'pending@x.org', language: 'en', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
    const id = await createLetter(t.db, ACTOR, VERSIONS, { language: 'en', source: '' });
    expect(await enqueue(t.db, id, { language: 'en', source: '' })).toBe(2);
    expect(await enqueue(t.db, id, { language: 'en', source: '' })).toBe(0);
    expect(await enqueue(t.db, id, { language: '', source: 'donor' })).toBe(0);
    expect(await enqueue(t.db, id, { language: '', source: 'signup' })).toBe(3);

    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(t.db, id, `w${i % 2}`, 2, T0)));
    // A claim that lost a race takes fewer rows (never one another holds): what is left, w1 takes now.
    claims.push([], await claim(t.db, id, 'w1', 10, T0));
    const ids = claims.flat().map((c) => c.id);
    // A worker reads back every row it holds: the same row may be listed twice for one worker, never for two.
    const holders = new Map<string, Set<number>>();
    claims.forEach((c, i) => c.forEach((r) => holders.set(r.id, (holders.get(r.id) ?? new Set()).add(i % 2))));
    expect(new Set(ids).size).toBe(5);
    expect([...holders.values()].every((h) => h.size === 1)).toBe(true);
    expect(await queueCounts(t.db, id)).toMatchObject({ queued: 0, claimed: 5 });

    // Only the holder settles or releases its row; a settled row cannot be settled again.
    const [first] = claims.flat();
    const holder = `w${[...holders.get(first.id)!][0]}`;
    const other = holder === 'w0' ? 'w1' : 'w0';
    expect(await settle(t.db, first.id, other, 'sent', null, T0)).toBe(false);
    expect(await release(t.db, first.id, other)).toBe(false);
    expect(await settle(t.db, first.id, holder, 'sent', null, T0)).toBe(true);
    expect(await settle(t.db, first.id, holder, 'failed', 'x', T0)).toBe(false);
    expect(await release(t.db, first.id, holder)).toBe(false);
    // A holder gives back a claim whose mail surely did not leave: another worker may take it.
    const [second] = claims.flat().filter((c) => c.id !== first.id);
    const secondHolder = `w${[...holders.get(second.id)!][0]}`;
    expect(await release(t.db, second.id, secondHolder)).toBe(true);
    expect((await claim(t.db, id, 'w2', 10, T0)).map((c) => c.id)).toEqual([second.id]);
    // Claims older than the lease become unknown, younger ones stay.
    expect(await markAbandoned(t.db, 60_000, new Date(T0.getTime() + 59_000))).toBe(0);
    expect(await markAbandoned(t.db, 60_000, new Date(T0.getTime() + 61_000))).toBe(4);
    expect(await queueCounts(t.db, id)).toMatchObject({ sent: 1, unknown: 4, claimed: 0, queued: 0 });
    expect(await claim(t.db, id, 'w3', 10, T0)).toEqual([]);
  });

  it('two workers send a letter once to everyone, in each reader’s language (French when theirs is missing), with well-formed unsubscribe headers', async () => {
    const smtp = await startSmtp();
    try {
      const fr = Array.from({ length: 12 }, (_, i) => `fr${i}@x.org`);
      await subscribe(t.db, fr, 'fr');
      await subscribe(t.db, ['en0@x.org', 'en1@x.org'], 'en');
      await subscribe(t.db, ['es0@x.org'], 'es');
      const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      expect(await sendNow(t.db, ACTOR, id)).toBe('ok');
      expect(await sendNow(t.db, ACTOR, id)).toBe('locked');
      workers(smtp.url, 2);
      await waitFor(() => sent(id));
      expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual([...fr, 'en0@x.org', 'en1@x.org', 'es0@x.org'].sort());
      expect(await queueCounts(t.db, id)).toMatchObject({ sent: 15, queued: 0, claimed: 0, failed: 0, unknown: 0 });

      const en = smtp.mails.find((m) => m.to[0] === 'en0@x.org')!;
      const es = smtp.mails.find((m) => m.to[0] === 'es0@x.org')!;
      expect(en.text).toContain('News from Thiès');
      expect(en.text).toContain('The school year started well.');
      expect(en.text).toContain(`${ORIGIN}/en/blog/rentree`);
      expect(en.text).toContain(`${ORIGIN}/media/rentree.jpg`);
      expect(es.text).toContain('La rentrée s’est bien passée.');
      expect(es.text).toContain('Darse de baja');
      for (const m of smtp.mails) {
        const list = header(m.raw, 'List-Unsubscribe')!;
        expect(list).toMatch(/^<https:\/\/fondation\.example\.org\/lettre\/desabonnement\/[^>\s]+\/un-clic>, <mailto:[^>\s]+\?subject=unsubscribe%20[^>\s]+>$/);
        expect(header(m.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
        expect(m.text).toContain('12 rue de la Paix');
      }
      // The header's address unsubscribes its own reader, and only them.
      const token = decodeURIComponent(/desabonnement\/([^/>]+)\/un-clic/.exec(header(en.raw, 'List-Unsubscribe')!)![1]);
      expect(await leaveWithToken(t.db, SECRET, token, 'one-click')).toBe(true);
      expect((await subscriberByEmail(t.db, 'en0@x.org'))?.status).toBe('unsubscribed');
      expect((await subscriberByEmail(t.db, 'en1@x.org'))?.status).toBe('subscribed');
    } finally {
      await smtp.close();
    }
  });

  it('a letter’s mails go out over one SMTP connection kept open, not a connection each; transactional mail keeps one per mail', async () => {
    const smtp = await startSmtp();
    try {
      const readers = Array.from({ length: 6 }, (_, i) => `one${i}@x.org`);
      await subscribe(t.db, readers, 'fr');
      const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, id);
      workers(smtp.url, 1);
      await waitFor(() => sent(id));
      expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(readers);
      expect(smtp.connections).toBe(1);

      const config = { smtpUrl: smtp.url, from: 'Fondation THV <no-reply@fondation.example.org>' };
      for (const to of ['a@x.org', 'b@x.org']) expect((await sendMail(t.db, config, { to, subject: 'Reçu', text: 'Merci.', html: '<p>Merci.</p>' })).status).toBe('sent');
      expect(smtp.connections).toBe(3);
    } finally {
      await smtp.close();
    }
  });

  it('letters come from the sender the Admin set (MAIL_FROM while none is set), the mailto to its mailbox', async () => {
    const smtp = await startSmtp();
    try {
      await subscribe(t.db, ['reader@x.org'], 'fr');
      workers(smtp.url, 1);
      const first = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, first);
      await waitFor(() => sent(first));
      expect(header(smtp.mails[0].raw, 'From')).toBe('Fondation THV <lettres@fondation.example.org>');
      expect(header(smtp.mails[0].raw, 'List-Unsubscribe')).toContain('<mailto:contact@fondation-thv.org?subject=');

      expect(await saveSender(t.db, ACTOR, { name: 'Nouvelles de la fondation', email: 'nouvelles@envoi.example.org', unsubscribeMailbox: 'depart@envoi.example.org' }, 0)).toBe('ok');
      const second = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, second);
      await waitFor(() => sent(second));
      expect(header(smtp.mails[1].raw, 'From')).toBe('Nouvelles de la fondation <nouvelles@envoi.example.org>');
      expect(header(smtp.mails[1].raw, 'List-Unsubscribe')).toContain('<mailto:depart@envoi.example.org?subject=');
      expect(smtp.mails[1].text).toContain('Nouvelles de la fondation · 12 rue de la Paix');
    } finally {
      await smtp.close();
    }
  });

  it('the letters’ job brings in a donor’s new consent by itself, without any page or send asking for it', async () => {
    workers(undefined, 1, { syncEveryMs: 50 });
    await waitFor(async () => (await t.db.selectFrom('settings').select('key').where('key', '=', 'letters.sources').executeTakeFirst()) !== undefined);
    await t.db.insertInto('donations').values(ledgerRow('gift-1', new Date().toISOString(), { donor_email: 'Nouveau@Example.org', language: 'en' })).execute();
    await recordNewsletterConsent(t.db, 'gift-1', new Date());
    await waitFor(async () => (await subscriberByEmail(t.db, 'nouveau@example.org'))?.status === 'subscribed', 10_000);
    expect(await subscriberByEmail(t.db, 'nouveau@example.org')).toMatchObject({ source: 'donor', language: 'en' });
  });

  it('a permanent refusal suppresses the address, and no later letter goes to it; a departure before its turn skips it', async () => {
    const smtp = await startSmtp({ refuse: (a) => (a === 'gone@x.org' ? { code: 550, message: 'No such user' } : undefined) });
    try {
      await subscribe(t.db, ['ok@x.org', 'gone@x.org', 'leaves@x.org']);
      const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, id);
      const leaver = await subscriberByEmail(t.db, 'leaves@x.org');
      await leaveWithToken(t.db, SECRET, (await import('~/domain/subscribers/unsubscribe-token.server')).unsubscribeToken(SECRET, leaver!.id), 'one-click');
      workers(smtp.url, 1);
      await waitFor(() => sent(id));
      expect(smtp.mails.map((m) => m.to[0])).toEqual(['ok@x.org']);
      expect(await queueCounts(t.db, id)).toMatchObject({ sent: 1, failed: 1, skipped: 1 });
      expect(await subscriberByEmail(t.db, 'gone@x.org')).toMatchObject({ status: 'suppressed' });
      expect((await subscriberByEmail(t.db, 'gone@x.org'))?.suppressedReason).toContain('No such user');

      const next = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, next);
      await waitFor(() => sent(next));
      expect(smtp.mails.map((m) => m.to[0])).toEqual(['ok@x.org', 'ok@x.org']);
      expect(await queueCounts(t.db, next)).toMatchObject({ sent: 1, failed: 0, skipped: 0 });
    } finally {
      await smtp.close();
    }
  });

  it('a connection closed after a mail was handed over never sends that mail again; the others go out', async () => {
    const smtp = await startSmtp({ drop: (a) => a === 'lost@x.org' });
    try {
      await subscribe(t.db, ['a@x.org', 'lost@x.org', 'b@x.org']);
      const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, id);
      workers(smtp.url, 1);
      await waitFor(() => sent(id));
      // The server had the whole message: it may have delivered it. Marked failed ("issue inconnue"), never retried.
      expect(smtp.dropped.map((m) => m.to[0])).toEqual(['lost@x.org']);
      expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['a@x.org', 'b@x.org']);
      expect(await queueCounts(t.db, id)).toMatchObject({ sent: 2, failed: 1, queued: 0 });
      expect(await subscriberByEmail(t.db, 'lost@x.org')).toMatchObject({ status: 'subscribed' });
    } finally {
      await smtp.close();
    }
  });

  it('pauses itself after a run of errors and says why; nothing is lost; without SMTP it pauses at once', async () => {
    await subscribe(t.db, Array.from({ length: 8 }, (_, i) => `p${i}@x.org`));
    const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
    await sendNow(t.db, ACTOR, id);
    // A port nobody listens on: the server cannot be reached, nothing was delivered.
    workers('smtp://127.0.0.1:9', 1);
    await waitFor(async () => (await getLetter(t.db, id))?.status === 'paused');
    const letter = await getLetter(t.db, id);
    expect(letter?.pauseReason).toMatch(/^Envoi mis en pause automatiquement après 5 échecs de suite\. Dernière erreur : .+/);
    expect(await queueCounts(t.db, id)).toMatchObject({ queued: 8, claimed: 0, sent: 0, failed: 0 });
    for (const stop of stops.splice(0)) await stop();

    const other = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
    await sendNow(t.db, ACTOR, other);
    workers(undefined, 1);
    await waitFor(async () => (await getLetter(t.db, other))?.status === 'paused');
    expect((await getLetter(t.db, other))?.pauseReason).toContain('SMTP_URL');
  });
});
