import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed links and signature checks, in one place (issue 39): an unsubscribe link, a renewal link,
 * a draft's preview link and the providers' shared secrets all come down to an HMAC-SHA256 and a
 * comparison that takes the same time whatever the input. Each caller keeps its own link's shape
 * (links already mailed keep working) and separates its purpose by its message's first word or by
 * a key derived for it, so that one kind of link can never be replayed as another.
 */

/** The HMAC-SHA256 of `message` under `key`: base64url (43 characters, our links), or hex where a provider signs so. */
export function signature(key: string | Buffer, message: string, encoding: 'base64url' | 'hex' = 'base64url'): string {
  return createHmac('sha256', key).update(message).digest(encoding);
}

/**
 * Whether two strings are equal, in a time that tells nothing of where they differ or of the
 * expected one's length: both are hashed first, so the comparison is of equal lengths (two strings
 * with the same SHA-256 are the same string).
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** Whether `given` is the signature of `message` under `key`. */
export const signatureMatches = (key: string | Buffer, message: string, given: string): boolean => sameSecret(given, signature(key, message));

/** A link's expiry, in whole seconds since the epoch, `ttlMs` from `now`. */
export const expiryFrom = (now: Date, ttlMs: number): number => Math.floor((now.getTime() + ttlMs) / 1000);

/** Whether a link whose expiry is `expires` (seconds) is still good at `now`. */
export const stillValid = (expires: number, now: Date): boolean => expires * 1000 > now.getTime();
