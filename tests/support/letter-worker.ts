/**
 * A letters worker in a process of its own (tests/integration/letters-queue.test.ts kills it with
 * SIGKILL mid-send, then starts another): the same loop the server starts, on the database and
 * SMTP server named by the environment. Run with tsx.
 */
import { openDatabase } from '~db/index';
import { startLetterSending } from '~/domain/letters/worker.server';
import { deliverBulk } from '~/lib/mail.server';

const env = process.env;
const handle = openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
startLetterSending({
  db: handle.db,
  site: { origin: env.PUBLIC_URL!, appSecret: env.APP_SECRET! },
  deliver: (m) => deliverBulk({ smtpUrl: env.SMTP_URL!, from: 'Fondation THV <lettres@fondation.example.org>' }, m),
  workerId: env.WORKER_ID,
  leaseMs: Number(env.LEASE_MS),
  idleMs: 100,
});
// The loop's timer is unref'd (it must not hold a server's shutdown); in the server the listener
// keeps the process alive, here this does: else, on SQLite (no socket open), a round that finds
// only a claim whose lease has not expired yet ends the process before the next round.
setInterval(() => {}, 1 << 30);
process.stdout.write('ready\n');
