import { sameSecret, signature } from '~/lib/signed-link.server';
import type { BounceEvent, BounceKind, BounceProvider, Verified } from './types';

/**
 * Mailgun's webhooks (https://documentation.mailgun.com/docs/mailgun/user-manual/tracking-messages/#securing-webhooks):
 * a JSON body `{ signature: { timestamp, token, signature }, "event-data": { id, event, severity,
 * recipient, … } }`, the signature being the hex HMAC-SHA256 of `timestamp + token` under the
 * webhook signing key. A notification older than MAX_AGE_S, or from the future, is refused (a
 * replayed capture); an event already applied is recognised by its id anyway.
 */
export const MAX_AGE_S = 15 * 60;

interface Body {
  signature?: { timestamp?: unknown; token?: unknown; signature?: unknown };
  'event-data'?: { id?: unknown; event?: unknown; severity?: unknown; recipient?: unknown; reason?: unknown; 'delivery-status'?: { code?: unknown; message?: unknown; description?: unknown } };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function mailgunSignature(key: string, timestamp: string, token: string): string {
  return signature(key, timestamp + token, 'hex');
}

function kindOf(event: string, severity: string): BounceKind | undefined {
  if (event === 'failed') return severity === 'permanent' ? 'hard' : severity === 'temporary' ? 'soft' : undefined;
  if (event === 'complained') return 'complaint';
  if (event === 'delivered') return 'delivered';
  return undefined;
}

/**
 * Mailgun's signature, the same on its webhooks and on the mail its routes forward: the hex
 * HMAC-SHA256 of timestamp and token under the webhook signing key, at most MAX_AGE_S old.
 * Returns why it is refused, or undefined when it holds.
 */
export function checkMailgunSignature(sig: { timestamp?: unknown; token?: unknown; signature?: unknown }, key: string, now: Date): string | undefined {
  const timestamp = str(sig.timestamp);
  const token = str(sig.token);
  const given = str(sig.signature);
  if (!timestamp || !token || !given) return 'signature missing';
  if (!sameSecret(given, mailgunSignature(key, timestamp, token))) return 'bad signature';
  const age = now.getTime() / 1000 - Number(timestamp);
  if (!(age <= MAX_AGE_S && age >= -MAX_AGE_S)) return 'stale notification';
  return undefined;
}

/**
 * A mail a Mailgun route forwarded (https://documentation.mailgun.com/docs/mailgun/user-manual/receive-forward-store/):
 * a form POST with `timestamp`, `token`, `signature` (checked as the webhooks'), `subject`, `recipient`…
 * Returns its subject once authenticated.
 */
export function verifyMailgunInbound(form: { get(name: string): unknown }, key: string, now: Date): { ok: true; subject: string } | { ok: false; reason: string } {
  const refused = checkMailgunSignature({ timestamp: form.get('timestamp'), token: form.get('token'), signature: form.get('signature') }, key, now);
  return refused ? { ok: false, reason: refused } : { ok: true, subject: str(form.get('subject')) };
}

export const mailgun: BounceProvider = {
  name: 'mailgun',
  verify(body: unknown, key: string, now: Date): Verified {
    const b = (body ?? {}) as Body;
    const refused = checkMailgunSignature(b.signature ?? {}, key, now);
    if (refused) return { ok: false, reason: refused };
    const token = str(b.signature?.token);
    const e = b['event-data'] ?? {};
    const kind = kindOf(str(e.event), str(e.severity));
    const recipient = str(e.recipient).trim().toLowerCase();
    if (!kind || !recipient) return { ok: true, events: [] };
    const status = e['delivery-status'] ?? {};
    const detail = [str(status.code), str(status.message) || str(status.description) || str(e.reason)].filter(Boolean).join(' ').slice(0, 300) || str(e.event);
    const event: BounceEvent = { id: `mailgun:${str(e.id) || token}`, kind, recipient, detail };
    return { ok: true, events: [event] };
  },
};
