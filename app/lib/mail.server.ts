import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { DB } from '~db/index';
import { log } from './log.server';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with the mail (not kept in the outbox, which records the text only). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Extra headers (a letter's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** Overrides the configured sender (letters: the sender an Admin set). */
  from?: string;
}

/**
 * Where a mail went, said plainly: accepted by the SMTP server, kept in the outbox only (no
 * SMTP_URL), or not sent because the server refused it or could not be reached.
 */
export type MailResult =
  | { status: 'sent'; id: string }
  | { status: 'outbox'; id: string }
  | { status: 'failed'; id: string; error: string };

export interface MailConfig {
  smtpUrl?: string;
  from: string;
}

/**
 * How the site sends its mails: through SMTP_URL when set, from MAIL_FROM or else a no-reply
 * address at the site's host name (never with a port: an address cannot carry one); without a
 * trusted site address (ADR 010), at localhost rather than at whatever Host a request named.
 */
export function mailConfigFor(env: { SMTP_URL?: string; MAIL_FROM?: string }, siteUrl: string | undefined): MailConfig {
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM || `Fondation THV <no-reply@${siteUrl ? new URL(siteUrl).hostname : 'localhost'}>` };
}

/** Text made safe inside a mail's HTML (mails quote what donors typed). */
export const escapeMailHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Plain paragraphs as a mail's HTML: each escaped, its links made clickable. */
export const paragraphsHtml = (paragraphs: string[]): string =>
  paragraphs.map((p) => `<p>${escapeMailHtml(p).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join('\n');

const transports = new Map<string, Transporter>();

/**
 * How a transport is made: the URL and the options in ONE object. nodemailer's second argument
 * is the messages' defaults, not the transport's options: given there, `pool` and the timeouts
 * were silently ignored and every letter opened a connection of its own (issue 33's bench: ~9
 * letters a second, each waiting for a new connection's greeting).
 */
function transportOptions(url: string, pooled = false) {
  return {
    url,
    // Before anything is sent: a server that does not answer is given up on quickly.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    // A letter keeps nodemailer's 10 minutes of silence (RFC 5321's wait for the reply to DATA):
    // nodemailer reports a timeout after the message as it reports a refused connection, which
    // puts the row back in the queue (outcome.ts), so a relay slow to answer would get it twice.
    ...(pooled
      ? // nodemailer's pool requeues a message itself only when not a byte of it was sent.
        { pool: true as const, maxConnections: 1, maxMessages: 1000 }
      : { socketTimeout: 20_000 }),
  };
}

/**
 * One transport per SMTP server. `pooled` (bulk sending): one connection kept open and reused
 * for mail after mail, instead of a connection, greeting and goodbye per letter.
 */
function transport(url: string, pooled = false): Transporter {
  const key = pooled ? `${url}#pool` : url;
  let t = transports.get(key);
  if (!t) {
    t = nodemailer.createTransport(transportOptions(url, pooled) as Parameters<typeof nodemailer.createTransport>[0]);
    transports.set(key, t);
  }
  return t;
}

/**
 * Every mail is first written to `mail_outbox` (so an admin, and tests, can read what was sent),
 * then handed to the SMTP server when one is configured. Never throws for a delivery problem: the
 * caller gets `failed` and must say so.
 */
export async function sendMail(db: DB, config: MailConfig, mail: Mail): Promise<MailResult> {
  const id = randomUUID();
  await db
    .insertInto('mail_outbox')
    .values({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, created_at: new Date().toISOString(), sent_at: null, error: null })
    .execute();
  if (!config.smtpUrl) {
    // Never the mail itself: its links are single-use secrets. An Admin reads it in the back office.
    log.warn('mail not sent: SMTP_URL is not set; kept for the Admins under "Courriels en attente"', { mailId: id });
    return { status: 'outbox', id };
  }
  try {
    await transport(config.smtpUrl).sendMail({ from: mail.from ?? config.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, attachments: mail.attachments, headers: mail.headers });
    await db.updateTable('mail_outbox').set({ sent_at: new Date().toISOString() }).where('id', '=', id).execute();
    log.info('mail sent', { mailId: id, to: mail.to, subject: mail.subject });
    return { status: 'sent', id };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await db.updateTable('mail_outbox').set({ error }).where('id', '=', id).execute();
    log.error('mail sending failed; kept in the mail_outbox table', { mailId: id, to: mail.to, subject: mail.subject, error });
    return { status: 'failed', id, error };
  }
}

/** Why the SMTP server did not take a mail: its reply code when it answered (550…), else none. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly responseCode: number | undefined,
    /** nodemailer's code: ECONNECTION, ESOCKET, ETIMEDOUT, EENVELOPE, EMESSAGE… */
    readonly code: string | undefined,
    /** The SMTP step that failed: CONN (connecting), RCPT TO, DATA… */
    readonly command?: string,
    /**
     * Whether the transport had begun reading the message when it failed. nodemailer says CONN for
     * a connection closed after the whole message went out as for one refused before anything did;
     * this tells them apart (deliverBulk), so a failure after the handover is never retried.
     */
    readonly messageRead?: boolean,
  ) {
    super(message);
  }
}

/**
 * Hands one mail of a bulk sending (a letter) to the SMTP server, without the outbox: the sending
 * queue is its record. Throws a DeliveryError when the server refused it or could not be reached.
 */
export async function deliverBulk(config: MailConfig & { smtpUrl: string }, mail: Mail): Promise<void> {
  // The message is built here and handed over as a stream we watch: whether the transport read a
  // byte of it is what says, when the connection fails, whether the letter may have left.
  const node = new MailComposer({ from: mail.from ?? config.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers }).compile();
  const message = await node.build();
  let messageRead = false;
  const raw = new Readable({
    read() {
      messageRead = true;
      this.push(message);
      this.push(null);
    },
  });
  try {
    await transport(config.smtpUrl, true).sendMail({ envelope: node.getEnvelope(), raw });
  } catch (e) {
    const err = e as { message?: string; responseCode?: number; code?: string; command?: string };
    throw new DeliveryError(err.message ?? String(e), typeof err.responseCode === 'number' ? err.responseCode : undefined, err.code, err.command, messageRead);
  }
}

/** Closes pooled SMTP connections (shutdown, tests). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  error: string | null;
}

/** Mails not handed to any SMTP server (none configured, or it refused them), newest first. */
export async function pendingMails(db: DB, limit = 50): Promise<OutboxMail[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'to', 'subject', 'text', 'created_at', 'error'])
    .where('sent_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, createdAt: r.created_at, error: r.error }));
}
