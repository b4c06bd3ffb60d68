import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DB } from '~db/index';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { confirmSignup, requestSignup, subscriberByEmail } from '~/domain/subscribers/subscribers.server';
import type { LetterVersions } from '~/domain/letters/letter';
import { createLetter, getLetter, saveSendingRate, sendNow } from '~/domain/letters/letters.server';
import { queueCounts } from '~/domain/letters/queue.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { startSmtp } from '../support/smtp';

const SECRET = 'letters-kill-test-'.padEnd(48, 'k');
const ORIGIN = 'https://fondation.example.org';
const ACTOR = { id: 'u1', name: 'Éva Éditrice' };
const VERSIONS: LetterVersions = { fr: { subject: 'Nouvelles de Thiès', body: 'Bonjour.', link: '', image: '' } };

async function subscribe(db: DB, emails: string[]) {
  for (const email of emails) {
    const r = await requestSignup(db, { email, language: 'fr', from: '/', wordingVersion: CONSENT_WORDING_VERSION });
    if (r.kind !== 'ask') throw new Error(`not asked: ${email}`);
    await confirmSignup(db, r.token);
  }
}

async function waitFor(check: () => Promise<boolean>, ms = 150_000, why: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out${why()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The sending's promise under the worst stop (ADR 022): a worker process killed with SIGKILL while
 * the SMTP server holds one of its mails, then another started: nobody receives the letter twice,
 * and the mail that was in flight is counted as unknown, never resent.
 */
describeEachDialect('a letters worker killed mid-send, on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.destroy();
  });
  const sent = async (id: string) => (await getLetter(t.db, id))?.status === 'sent';

  it('a worker killed (SIGKILL) mid-send and another started after it: nobody gets the letter twice; the mail in flight is marked unknown', async () => {
    const emails = Array.from({ length: 10 }, (_, i) => `k${String(i).padStart(2, '0')}@x.org`);
    const smtp = await startSmtp({ hang: (a) => a === 'k04@x.org' });
    const children: ChildProcess[] = [];
    /** What each worker wrote to stderr, and how it ended: said when a wait times out. */
    const said = new Map<string, string>();
    const story = () => [...said].map(([w, text]) => `\n${w}: ${text.slice(-2000) || '(nothing on stderr)'}`).join('');
    try {
      await subscribe(t.db, emails);
      await saveSendingRate(t.db, ACTOR, { perSecond: 20, perHour: 100_000 });
      const id = await createLetter(t.db, ACTOR, VERSIONS, { language: '', source: '' });
      await sendNow(t.db, ACTOR, id);
      const databaseUrl = dialect === 'postgres' ? (t.pool as unknown as { options: { connectionString: string } }).options.connectionString : '';
      const start = (worker: string) => {
        const child = spawn(path.resolve('node_modules/.bin/tsx'), [path.resolve('tests/support/letter-worker.ts')], {
          env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: t.dataDir, SMTP_URL: smtp.url, PUBLIC_URL: ORIGIN, APP_SECRET: SECRET, WORKER_ID: worker, LEASE_MS: '1500', LOG_LEVEL: 'error' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        said.set(worker, '');
        child.stderr?.on('data', (b: Buffer) => said.set(worker, said.get(worker) + b.toString()));
        child.stdout?.resume();
        child.once('exit', (code, signal) => said.set(worker, `${said.get(worker)}[exit ${code ?? signal}]`));
        children.push(child);
        return child;
      };
      const first = start('first');
      // Each worker is a tsx process that compiles the app's modules as it starts: tens of seconds
      // on a loaded 2-core machine (the whole suite in parallel), hence the long waits.
      await smtp.until(() => smtp.hung.length === 1, 120_000);
      const killed = new Promise((r) => first.once('exit', r));
      first.kill('SIGKILL');
      await killed;
      // The mail in flight is the one claim left; what was sent before it is counted as sent.
      const before = await queueCounts(t.db, id);
      expect(before.claimed).toBe(1);
      expect(before.sent).toBe(smtp.mails.length);
      expect(before.sent + before.queued + before.claimed).toBe(emails.length);

      smtp.behaviour.hang = undefined;
      start('second');
      await waitFor(() => sent(id), 150_000, story);
      const received = [...smtp.mails, ...smtp.hung].map((m) => m.to[0]).sort();
      expect(received).toEqual(emails);
      expect(await queueCounts(t.db, id)).toMatchObject({ sent: 9, unknown: 1, claimed: 0, queued: 0 });
      const unknown = await t.db.selectFrom('letter_queue').select(['subscriber_id', 'claimed_by']).where('status', '=', 'unknown').executeTakeFirstOrThrow();
      expect(unknown.claimed_by).toBe('first');
      expect(unknown.subscriber_id).toBe((await subscriberByEmail(t.db, 'k04@x.org'))!.id);
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await smtp.close();
    }
  }, 330_000);
});
