import { createHash, randomBytes } from 'node:crypto';

/** A random 32-byte token for a cookie or a link, and the sha256 under which the database keeps it. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
