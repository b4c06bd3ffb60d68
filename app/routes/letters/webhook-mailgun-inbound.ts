import type { Route } from './+types/webhook-mailgun-inbound';
import { verifyMailgunInbound } from '~/domain/letters/bounces/mailgun.server';
import { leaveByMail } from '~/domain/letters/leaving.server';
import { log } from '~/lib/log.server';
import { db, runtime } from '~/lib/runtime.server';
import { mailgunKeyOr400, text } from './mailgun.server';

/**
 * POST /webhooks/mail/mailgun/entrant: the mail a Mailgun route forwards from the letters'
 * unsubscribe mailbox (the List-Unsubscribe mailto, ADR 022), signed as Mailgun's webhooks are.
 * The reader named by the token in its subject leaves at once. Without the signing key: 400 and a
 * warning; a bad or stale signature: 401; any authenticated mail: 200 (a mail that names nobody
 * is ignored, so Mailgun does not retry it; a replay changes nothing).
 */
export async function action({ request }: Route.ActionArgs) {
  const signing = mailgunKeyOr400('inbound mail');
  if ('refused' in signing) return signing.refused;
  const { key } = signing;
  const form = await request.formData().catch(() => new FormData());
  const verified = verifyMailgunInbound(form, key, new Date());
  if (!verified.ok) {
    log.warn('inbound mail refused', { provider: 'mailgun', reason: verified.reason });
    return text('Unauthorized', 401);
  }
  const left = await leaveByMail(db(), runtime().secret, verified.subject);
  if (!left) log.info('inbound mail ignored: no unsubscribe token of this site in its subject', { provider: 'mailgun' });
  return text(left ? 'Unsubscribed' : 'Ignored', 200);
}
