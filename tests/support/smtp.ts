import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** Headers and body with quoted-printable and base64 parts decoded. */
  text: string;
  /** The message as received (binary attachments are still base64 there). */
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const unfolded = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < unfolded.length; i++) {
    const hex = unfolded.slice(i + 1, i + 3);
    if (unfolded[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(unfolded[i]));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Good enough for the mails our server writes: each part decoded according to its encoding. */
function decodeMime(raw: string): string {
  return raw
    .split(/\r?\n(?=--)/)
    .map((part) => {
      const [head, ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return `${head}\n\n${decodeQuotedPrintable(body)}`;
      if (/content-transfer-encoding:\s*base64/i.test(head)) return `${head}\n\n${Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')}`;
      return part;
    })
    .join('\n');
}

export interface SmtpBehaviour {
  /** Recipients refused at RCPT TO with this reply (a permanent 550, a temporary 450…). */
  refuse?: (address: string) => { code: number; message: string } | undefined;
  /** Recipients whose message is read and never answered (the sender waits until it is killed). */
  hang?: (address: string) => boolean;
  /** Recipients whose message is read in full, then the connection is closed before the reply (kept in `dropped`). */
  drop?: (address: string) => boolean;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every mail it is given (a hung one too, in `hung`).
 * `behaviour` may be changed while it runs.
 */
export async function startSmtp(behaviour: SmtpBehaviour = {}) {
  const mails: CaughtMail[] = [];
  const hung: CaughtMail[] = [];
  const dropped: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A letters' sender keeps its connection open (one for a whole sending): closing the server
    // ends it after this grace instead of waiting for the client to leave (30 s by default).
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      const refusal = behaviour.refuse?.(address.address);
      if (!refusal) return callback();
      const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), text: decodeMime(raw), raw };
        if (mail.to.some((a) => behaviour.drop?.(a))) {
          dropped.push(mail);
          for (const c of (server as unknown as { connections: Set<{ session?: { id: string }; _socket: { destroy(): void } }> }).connections) {
            if (c.session?.id === session.id) c._socket.destroy();
          }
          return;
        }
        if (mail.to.some((a) => behaviour.hang?.(a))) {
          hung.push(mail);
          waiters.splice(0).forEach((w) => w());
          return;
        }
        mails.push(mail);
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    hung,
    dropped,
    behaviour,
    /** How many SMTP connections were opened to it so far. */
    get connections() {
      return connections;
    },
    /** Waits (up to `ms`) until `done()` holds, checking after each mail. */
    async until(done: () => boolean, ms = 20_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!done()) {
        if (Date.now() > deadline) throw new Error('the SMTP server did not receive what was expected in time');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    /** The next mail to `to` (waits up to 10 s for it). */
    async mailTo(to: string): Promise<CaughtMail> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = mails.find((m) => m.to.includes(to));
        if (found) {
          mails.splice(mails.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 500);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
