import type { Route } from './+types/webhook-mailgun';
import { applyBounceEvent } from '~/domain/letters/bounces/apply.server';
import { mailgun } from '~/domain/letters/bounces/mailgun.server';
import { log } from '~/lib/log.server';
import { db } from '~/lib/runtime.server';
import { mailgunKeyOr400, text } from './mailgun.server';

/**
 * POST /webhooks/mail/mailgun: Mailgun's bounce, complaint and delivery notifications (ADR 022).
 * Without MAILGUN_WEBHOOK_SIGNING_KEY it refuses (400, logged as a warning, as the payment webhooks
 * do without their secret) rather than accept unverifiable news; a bad or stale signature is 401;
 * a replay answers 200 and changes nothing.
 */
export async function action({ request }: Route.ActionArgs) {
  const signing = mailgunKeyOr400('mail webhook');
  if ('refused' in signing) return signing.refused;
  const { key } = signing;
  const body = await request.json().catch(() => undefined);
  const verified = mailgun.verify(body, key, new Date());
  if (!verified.ok) {
    log.warn('mail webhook refused', { provider: 'mailgun', reason: verified.reason });
    return text('Unauthorized', 401);
  }
  for (const event of verified.events) await applyBounceEvent(db(), event);
  return text('OK', 200);
}
