import { log } from '~/lib/log.server';
import { runtime } from '~/lib/runtime.server';

/** A plain answer to Mailgun (webhooks and forwarded mail), never cached. */
export const text = (body: string, status: number) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

/**
 * The Mailgun webhook signing key, or the answer for its absence: refused (400, logged as a
 * warning, as the payment webhooks do without their secret) rather than accept unverifiable news.
 */
export function mailgunKeyOr400(what: string): { key: string } | { refused: Response } {
  const key = runtime().env.MAILGUN_WEBHOOK_SIGNING_KEY;
  if (key) return { key };
  log.warn(`${what} refused`, { provider: 'mailgun', reason: 'MAILGUN_WEBHOOK_SIGNING_KEY is not set' });
  return { refused: text('Mailgun webhook signing key not configured', 400) };
}
