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
process.stdout.write('ready\n');
