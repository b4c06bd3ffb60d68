import { purposeKey } from '~/lib/secret-box.server';
import { signature, signatureMatches } from '~/lib/signed-link.server';

/**
 * The unsubscribe link's token (ADR 022): the subscriber's id and an HMAC-SHA256 of it under a key
 * derived from APP_SECRET for this purpose only. It never expires (a letter read a year later
 * still lets its reader leave) and needs no row: it proves which subscriber, nothing more.
 */
/** The key, derived once per secret: a letter signs a token for each of its thousands of readers. */
const key = purposeKey('unsubscribe-link');

export function unsubscribeToken(appSecret: string, subscriberId: string): string {
  return `${subscriberId}.${signature(key(appSecret), subscriberId)}`;
}

/** The subscriber's id when the token was signed by this site, else undefined. */
export function verifyUnsubscribeToken(appSecret: string, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot < 1) return undefined;
  const id = token.slice(0, dot);
  return signatureMatches(key(appSecret), id, token.slice(dot + 1)) ? id : undefined;
}
